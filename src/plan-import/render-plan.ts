/**
 * An imported plan as debussy plan files: MASTER_PLAN.md with a row per phase (its source id in a
 * Source column) and a phase file each, in the shape `debussy plan new` writes, so the audit and
 * the run read them like any other plan. Text copied from the source is kept from turning into
 * structure: its headings become bold lines (a "## Gates" in a task's details must not become
 * gates), an unclosed code fence is closed, and a `debussy done` in it is not an instruction. Pure.
 */
import { FOREIGN_FORMAT_NAMES } from '../plan/foreign-format.js';
import { statusLabel } from '../plan/status.js';
import type { PlannedPhase, PlannedPhases } from './assign-phase-ids.js';
import type { ImportedGate, ImportedPlan, ImportedTask } from './imported-plan.js';

export interface RenderInput {
  plan: ImportedPlan;
  planned: PlannedPhases;
  /** The plan's name (its folder under plans/). */
  name: string;
  /** Paths as the user writes them, relative to the project root, with `/`. */
  sourcePath: string;
  masterPath: string;
}

export interface RenderedFile {
  /** File name inside the plan's folder. */
  name: string;
  content: string;
}

export const MASTER_FILE = 'MASTER_PLAN.md';

export function phaseFileName(id: string): string {
  return `phase-${id}.md`;
}

export function renderImportedPlan(input: RenderInput): RenderedFile[] {
  return [
    { name: MASTER_FILE, content: renderMaster(input) },
    ...input.planned.phases.map((phase) => ({ name: phaseFileName(phase.id), content: renderPhase(phase, input) })),
  ];
}

function quoteArg(text: string): string {
  return /^[\w./@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** The command that imports this source into this plan again. */
export function importCommand(sourcePath: string, name: string, detail: string | undefined): string {
  const tag = /^tag (.+)$/.exec(detail ?? '')?.[1];
  return `debussy plan import ${quoteArg(sourcePath)} --name ${name}${tag === undefined || tag === 'master' ? '' : ` --tag ${quoteArg(tag)}`}`;
}

function renderMaster({ plan, planned, name, sourcePath, masterPath }: RenderInput): string {
  const rows = planned.phases.map((phase) => {
    const deps = phase.dependsOnIds.length === 0 ? 'None' : phase.dependsOnIds.join(', ');
    return `| ${phase.id} | [${cell(phase.title)}](${phaseFileName(phase.id)}) | ${statusLabel(phase.status)} | ${deps} | ${cell(phase.sourceLabel)} |`;
  });
  const notes = [
    ...(planned.renumbered ? [`The source's ids are not debussy phase ids, so the phases are numbered in the source's order; the Source column and each phase file keep the source's id.`] : []),
    ...planned.leftOut.map((item) => `Left out: ${item}.`),
    ...plan.notices,
    ...planned.notices,
  ];
  const detail = plan.sourceDetail === undefined ? '' : ` (${plan.sourceDetail})`;
  return [
    `# ${oneLine(plan.title)} - Master Plan`,
    '',
    `Imported by \`debussy plan import\` from the ${FOREIGN_FORMAT_NAMES[plan.format]} \`${sourcePath}\`${detail}.`,
    'When the source changes, import it again to update this plan (a re-import refuses to overwrite',
    'a file edited here, and says which):',
    '',
    '```sh',
    importCommand(sourcePath, name, plan.sourceDetail),
    '```',
    '',
    ...(plan.description === undefined ? [] : ['## Goal', '', importedProse(plan.description), '']),
    '## Phases',
    '',
    '| Phase | Title | Status | Depends On | Source |',
    '|-------|-------|--------|------------|--------|',
    ...rows,
    '',
    ...(notes.length === 0 ? [] : ['## Import notes', '', ...notes.map((note) => `- ${oneLine(note)}`), '']),
    '## Working on this plan',
    '',
    'Each phase file lists its tasks and its gates. A gate is a shell command, run from the project',
    'root, that must exit 0 before the phase counts as done. A gate the source gave only in words has',
    'no command yet: the audit names each one; write its command before you run the plan. Completed',
    'phases are skipped by `debussy run`.',
    '',
    `- Check the plan: \`debussy audit ${masterPath}\``,
    `- See the order it runs in: \`debussy run ${masterPath} --dry-run\``,
    `- Run it: \`debussy run ${masterPath}\``,
    '',
  ].join('\n');
}

function renderPhase(phase: PlannedPhase, { plan, name, sourcePath }: RenderInput): string {
  const notesOf = (id: string): string => `notes/NOTES_${name}_phase_${id}.md`;
  const depends = phase.dependsOnIds.length === 0 ? 'None' : phase.dependsOnIds.map((id) => `[Phase ${id}](${phaseFileName(id)})`).join(', ');
  const detail = plan.sourceDetail === undefined ? '' : `, ${plan.sourceDetail}`;
  // A phase already done is not run again: a check it has only in words would be a command to
  // write for work that is finished, so it stays in the phase's text alone.
  const gates = phase.status === 'completed' ? phase.gates.filter((gate) => gate.command !== undefined) : phase.gates;
  const lines = [
    `# Phase ${phase.id}: ${oneLine(phase.title)}`,
    '',
    `**Status:** ${statusLabel(phase.status)}`,
    `**Depends On:** ${depends}`,
    `**Source:** ${FOREIGN_FORMAT_NAMES[plan.format]} \`${sourcePath}\`${detail}: ${oneLine(phase.sourceLabel)} (${oneLine(phase.statusText)})`,
    '',
    '## Process Wrapper (MANDATORY)',
    // A phase done before the import, outside debussy, wrote no notes: hence "where they exist".
    ...(phase.dependsOnIds.length === 0 ? [] : [`- [ ] Read the notes of the phases this one depends on, where they exist: ${phase.dependsOnIds.map((id) => `\`${notesOf(id)}\``).join(', ')}`]),
    `- [ ] Do the tasks below in order; after each one, record it with \`debussy progress --phase ${phase.id} --message "what you finished"\``,
    '- [ ] Run every gate below; fix and re-run until all of them pass',
    `- [ ] Write \`${notesOf(phase.id)}\` with what you built, the decisions you made and why, and what the next phase must know`,
    `- [ ] Signal completion: \`debussy done --phase ${phase.id}\``,
    '',
    '## Gates (must pass before completion)',
    '',
    ...(gates.length === 0
      ? ['The source names no check for this phase. Add one bullet per check, each with the command that proves it, e.g. "- tests: the suite passes (command: `npm test`)".']
      : gateLines(gates)),
    '',
    ...(phase.overview === undefined ? [] : ['## Overview', '', importedProse(phase.overview), '']),
    ...(phase.tasks.length === 0 ? [] : ['## Tasks', '', ...phase.tasks.flatMap(taskLines), '']),
    ...phase.sections.flatMap((section) => [`## ${oneLine(section.heading)}`, '', importedProse(section.body), '']),
  ];
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

function gateLines(gates: ImportedGate[]): string[] {
  const used = new Map<string, number>();
  return gates.map((gate) => {
    const base = oneLine(gate.name).replace(/[:`*_]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 50) || 'check';
    const count = (used.get(base.toLowerCase()) ?? 0) + 1;
    used.set(base.toLowerCase(), count);
    const gateName = count === 1 ? base : `${base} ${count}`;
    // Without backticks, a description can never be read as the gate's command.
    const description = oneLine(gate.description).replace(/`/g, "'").replace(/\(\s*(command|cmd|run)\s*:/gi, '($1 -');
    if (gate.command === undefined) return `- ${gateName}: ${description} (no command yet: write the one that checks it here)`;
    return `- ${gateName}: ${description} (command: ${codeSpan(gate.command)})`;
  });
}

function taskLines(task: ImportedTask): string[] {
  const head = task.dropped === undefined ? `- [${task.done ? 'x' : ' '}] ${oneLine(task.text)}` : `- ~~${oneLine(task.text)}~~ (${task.dropped} in the source)`;
  const notes = task.notes.flatMap((note) => importedProse(note).split('\n')).map((line) => (line === '' ? '' : `  ${line}`));
  return [head, ...notes];
}

/** A command as a code span that survives backticks inside it. */
export function codeSpan(command: string): string {
  const longest = Math.max(0, ...[...command.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = command.startsWith('`') || command.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${command}${pad}${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A table cell: no pipes, no brackets that would break the row's link. */
function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '/').replace(/\[/g, '(').replace(/\]/g, ')').replace(/`/g, "'");
}

/**
 * Text from the source, as text: its headings become bold lines (never sections of the phase file),
 * a code fence left open is closed, and a `debussy done` in it is spelled so that it is not read as
 * this phase's completion instruction.
 */
export function importedProse(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').trim().split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      out.push(line);
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      out.push(line);
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const text = heading === null ? line : `**${(heading[1] ?? '').replace(/\*\*/g, '')}**`;
    // An entity for the space: it reads the same, but is no `debussy done` instruction for this phase.
    out.push(text.replace(/\bdebussy\s+done\b/g, 'debussy&#32;done'));
  }
  if (fence !== undefined) out.push(fence);
  return out.join('\n');
}
