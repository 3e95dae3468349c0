/**
 * `debussy run --dry-run`: the execution order with dependencies, gates and what a run would do
 * with each phase; starts nothing. As text, or with `--json` as one `dry_run` object (docs/output.md).
 */
import path from 'node:path';
import type { DebussyConfig } from '../config/index.js';
import { executionOrder, type Plan } from '../plan/index.js';
import { journalKey, latestRun, readPhaseMarks } from '../state/index.js';
import { planResume } from '../orchestrator/resume-plan.js';
import { checkPlanChange } from '../orchestrator/plan-change-check.js';
import { readPlanFingerprint } from '../plan/read-fingerprint.js';
import { gateCommandsOf } from '../orchestrator/preflight.js';
import { agentWarnings } from '../orchestrator/agent-warnings.js';
import { redactSecrets } from '../redact/index.js';
import { inertJson, inertLine, inertText } from '../text/inert-text.js';

export interface DryRunPhase {
  id: string;
  title: string;
  file: string;
  dependsOn: string[];
  /**
   * What a run would do: `run`, `resume` (an interrupted run's phase), `skip` (already complete) or
   * `verify` (completed, but its file or gates changed since: its gates run first, a session only if one fails).
   */
  action: 'run' | 'resume' | 'skip' | 'verify';
  /** Why it is skipped, or the plan's status text for a phase that runs. */
  note: string;
  carried?: { restarts: number; retries: number };
  gates: { name: string; command: string | null; fromConfig: boolean }[];
}

export interface DryRun {
  planName: string;
  planPath: string;
  contextThreshold: number;
  toolCallThreshold: number;
  maxRestarts: number;
  maxRetries: number;
  oneShot: boolean;
  phases: DryRunPhase[];
  /** What the run would warn about before it starts: claude refusing the agent's edits or gate commands, settings that turn debussy's hooks off. */
  warnings: string[];
  /** What changed in the plan since the last run and what the run does about it (docs/verification.md); empty when nothing did. */
  planChanges: string[];
}

export async function describeDryRun(root: string, plan: Plan, config: DebussyConfig, env: NodeJS.ProcessEnv = process.env, trustCompleted = false): Promise<DryRun> {
  const previous = await latestRun(root, plan.path);
  const resumed = planResume({ plan, prior: previous?.state, marks: await readPhaseMarks(root, plan.path, journalKey()), trustCompleted });
  const change = checkPlanChange(previous?.state, readPlanFingerprint(plan), resumed, trustCompleted);
  const resume = change?.resume ?? resumed;
  return {
    planName: plan.name, planPath: plan.path,
    contextThreshold: config.context_threshold, toolCallThreshold: config.tool_call_threshold,
    maxRestarts: config.max_restarts, maxRetries: config.max_retries,
    oneShot: config.max_restarts === 0 || config.context_threshold >= 100,
    phases: executionOrder(plan).map((phase): DryRunPhase => {
      const done = resume.completed.get(phase.id);
      const carry = resume.carry.get(phase.id);
      return {
        id: phase.id, title: phase.title, file: phase.path, dependsOn: [...phase.dependsOn],
        action: done ? 'skip' : carry?.reverify !== undefined ? 'verify' : carry ? 'resume' : 'run',
        note: done ?? (carry?.reverify === undefined ? undefined : `verify again: ${carry.reverify}`) ?? phase.statusText ?? 'pending',
        ...(carry && !done && carry.reverify === undefined ? { carried: { restarts: carry.restarts, retries: carry.retries } } : {}),
        // A command mapped under `gates:` in the config can hold a token: shown redacted.
        gates: (phase.file?.gates ?? []).map((gate) => ({ name: gate.name, command: gate.command === undefined ? null : redactSecrets(gate.command), fromConfig: gate.commandSource === 'config' })),
      };
    }),
    // What the run warns of before its first session, from the agent it would run (claude's permissions and hooks, codex's unsupported settings).
    warnings: agentWarnings(config, root, env, gateCommandsOf(executionOrder(plan).filter((phase) => !resume.completed.has(phase.id)))).map((w) => redactSecrets(w)),
    planChanges: (change?.lines ?? []).map((line) => redactSecrets(line)),
  };
}

const shown = (file: string) => inertLine(path.relative(process.cwd(), file) || file);

/** The text form; what the plan (and the journal before it) says is made inert. */
export function renderDryRun(dry: DryRun): string {
  const lines = [
    `Plan: ${inertLine(dry.planName)} (${shown(dry.planPath)})`,
    `Context threshold ${dry.contextThreshold}%, tool-call threshold ${dry.toolCallThreshold}, max restarts ${dry.maxRestarts}${dry.oneShot ? ' (one-shot mode)' : ''}, max retries ${dry.maxRetries}`,
    ...(dry.planChanges.length > 0 ? ['The plan changed since the last run:', ...dry.planChanges.map((line) => `  ${inertLine(line)}`)] : []),
    'Execution order:',
  ];
  dry.phases.forEach((phase, index) => {
    const state = phase.action === 'skip' ? `skip: ${phase.note}` : phase.action === 'verify' ? phase.note : phase.carried ? `resume (restarts ${phase.carried.restarts}, retries ${phase.carried.retries})` : phase.note;
    lines.push(`  ${index + 1}. ${inertLine(phase.id)}  ${inertLine(phase.title)}  [${inertLine(state)}]`);
    lines.push(`     file: ${shown(phase.file)}`);
    lines.push(`     depends on: ${phase.dependsOn.length > 0 ? inertLine(phase.dependsOn.join(', ')) : 'none'}`);
    if (phase.gates.length === 0) lines.push('     gates: none');
    for (const gate of phase.gates) lines.push(`     gate ${inertLine(gate.name)}: ${inertText(gate.command ?? '(no command)')}${gate.fromConfig ? ' (from config)' : ''}`);
  });
  for (const warning of dry.warnings) lines.push(`warning: ${inertText(warning)}`);
  lines.push('Dry run: nothing was started.');
  return `${lines.join('\n')}\n`;
}

/** The `--json` form: one NDJSON line. */
export function renderDryRunJson(dry: DryRun, now = new Date()): string {
  return `${inertJson(JSON.stringify({ type: 'dry_run', ts: now.toISOString(), ...dry }))}\n`;
}
