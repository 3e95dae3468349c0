/**
 * What debussy understood of a plan, for people (`debussy audit`) and for tools (`audit --json`):
 * each phase with its dependencies and where each is named, its gates with the commands that will
 * run, the notes it reads and writes, and the completion signal it tells the agent to send.
 * Seeing this is how a user finds a misread before a run acts on it.
 */
import { basename, dirname, isAbsolute, relative } from 'node:path';
import { inertLine, inertText } from '../text/inert-text.js';
import type { DependencyRef, Gate, Phase, Plan } from './types.js';

export interface PlanView {
  name: string;
  /** Absolute path of the master plan. */
  path: string;
  phases: PhaseView[];
}

export interface PhaseView {
  id: string;
  title: string;
  /** Absolute path of the phase file. */
  file: string;
  /** False when the phase file is missing or unreadable: nothing below comes from it. */
  fileRead: boolean;
  /** 1-based line of the phase's row in the master plan. */
  line: number;
  status: Phase['status'] | null;
  statusText: string | null;
  dependsOn: string[];
  /** Where each dependency is named: the table row, lines of the phase file. */
  dependencies: DependencyRef[];
  /** `command` is null when neither the bullet nor the config gives one (an audit error). */
  gates: (Pick<Gate, 'name' | 'commandSource' | 'line'> & { command: string | null })[];
  tasks: { total: number; done: number };
  notes: { read: string[]; write: string[] };
  /** The ids the phase file tells the agent to pass to `debussy done --phase`, with their lines. */
  completionSignals: { id: string; line: number }[];
}

/** Pure: the plan as the audit shows it. */
export function describePlan(plan: Plan): PlanView {
  return {
    name: plan.name,
    path: plan.path,
    phases: plan.phases.map((phase) => ({
      id: phase.id,
      title: phase.title,
      file: phase.path,
      fileRead: phase.file !== undefined,
      line: phase.line,
      status: phase.status ?? phase.file?.status ?? null,
      statusText: phase.statusText ?? phase.file?.statusText ?? null,
      dependsOn: [...phase.dependsOn],
      dependencies: phase.dependencyRefs.map((ref) => ({ ...ref })),
      gates: (phase.file?.gates ?? []).map(({ name, command, commandSource, line }) => ({ name, command: command ?? null, commandSource, line })),
      tasks: { ...(phase.file?.tasks ?? { total: 0, done: 0 }) },
      notes: { read: [...(phase.file?.notesToRead ?? [])], write: [...(phase.file?.notesToWrite ?? [])] },
      completionSignals: (phase.file?.completionSignals ?? []).map((signal) => ({ ...signal })),
    })),
  };
}

/** The text form: a header line, then a few indented lines per phase; what the plan says is made inert. */
export function renderPlanView(view: PlanView, cwd: string): string {
  const planDir = dirname(view.path);
  const lines = [`Plan: ${inertLine(view.name)} (${shown(view.path, cwd)}), ${view.phases.length} phase${view.phases.length === 1 ? '' : 's'}`];
  for (const phase of view.phases) {
    lines.push(`  ${inertLine(phase.id)}  ${inertLine(phase.title)}  [${inertLine(phase.statusText ?? 'no status')}]`);
    lines.push(`     file: ${shown(phase.file, cwd)}${phase.fileRead ? '' : ' (not read)'}`);
    lines.push(`     depends on: ${dependencyText(phase, planDir, view.path)}`);
    if (!phase.fileRead) continue;
    if (phase.gates.length === 0) lines.push('     gates: none');
    for (const gate of phase.gates) {
      const source = gate.commandSource === 'config' ? ' (from config)' : '';
      lines.push(`     gate ${inertLine(gate.name)}: ${inertText(gate.command ?? '(no command)')}${source}  [line ${gate.line}]`);
    }
    lines.push(`     notes: reads ${listOrNone(phase.notes.read)}; writes ${listOrNone(phase.notes.write)}`);
    const signals = phase.completionSignals.map((signal) => `debussy done --phase ${inertLine(signal.id)} [line ${signal.line}]`);
    lines.push(`     completion: ${signals.length > 0 ? signals.join(', ') : 'not spelled out in the phase file'}`);
    lines.push(`     tasks: ${phase.tasks.done} of ${phase.tasks.total} checked`);
  }
  return `${lines.join('\n')}\n`;
}

/** `1 (MASTER_PLAN.md:6, phase-2.md:4,14), 7 (phase-2.md:15)`, or `none`. */
function dependencyText(phase: PhaseView, planDir: string, masterPath: string): string {
  if (phase.dependsOn.length === 0) return 'none';
  return phase.dependsOn
    .map((id) => {
      const byFile = new Map<string, number[]>();
      for (const ref of phase.dependencies.filter((candidate) => candidate.id === id)) {
        byFile.set(ref.file, [...(byFile.get(ref.file) ?? []), ref.line]);
      }
      const places = [...byFile].map(([file, numbers]) => `${inertLine(file === masterPath ? basename(file) : relative(planDir, file) || file)}:${numbers.join(',')}`);
      return places.length === 0 ? inertLine(id) : `${inertLine(id)} (${places.join(', ')})`;
    })
    .join(', ');
}

function listOrNone(items: string[]): string {
  return items.length === 0 ? 'none' : items.map((item) => inertLine(item)).join(', ');
}

function shown(file: string, cwd: string): string {
  return inertLine(isAbsolute(file) ? relative(cwd, file) || file : file);
}
