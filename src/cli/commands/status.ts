/**
 * `debussy status`: the current or last run, each phase, and what `debussy run` will do next. What
 * the journal holds of the plan and the agent (names, titles, reasons) is shown inert.
 */
import path from 'node:path';
import { describeUnproven, effectiveRunStatus, latestRun, newerJournalNote, readRunLock, type RunState } from '../../state/index.js';
import { loadProjectConfig } from '../../config/index.js';
import { parsePlan } from '../../plan/index.js';
import { diffPlans, type PlanChange } from '../../plan/plan-diff.js';
import { readPlanFingerprint } from '../../plan/read-fingerprint.js';
import { decidePlanChange, planChangeLines } from '../../verification/plan-change.js';
import { renderRunSummary } from '../../report/run-summary.js';
import { projectRootForCommand } from '../active-run.js';
import { formatCount } from '../../text/format-count.js';
import { createRedactor, redactDeep } from '../../redact/index.js';
import { inertJson, inertLine } from '../../text/inert-text.js';

interface StatusOptions {
  json?: boolean;
}

function nextStep(state: RunState, status: string): string {
  const plan = inertLine(path.relative(process.cwd(), state.planPath) || state.planPath);
  if (status === 'running') return 'a run is in progress';
  if (status === 'completed') return 'nothing: every phase completed';
  const pending = state.phaseOrder.filter((id) => state.phases[id]?.status !== 'completed');
  const current = pending.find((id) => (state.phases[id]?.attempts ?? 0) > 0);
  if (status === 'interrupted' && current) {
    const p = state.phases[current];
    return `\`debussy run ${plan}\` resumes phase ${current} from its checkpoint (restarts ${p?.restarts ?? 0}, retries ${p?.retries ?? 0} carried over)`;
  }
  const broken = (state.regressions ?? []).filter((r) => !r.passed && r.mode === 'end');
  if (pending.length === 0 && broken.length > 0) {
    return `fix what broke gate(s) ${broken.map((r) => inertLine(`${r.name} of phase ${r.phaseId}`)).join(', ')} (regression check above), then \`debussy run ${plan}\` checks them again`;
  }
  if (status === 'blocked') return `answer what the agent needs (reason above), then \`debussy run ${plan}\` runs phase ${pending[0] ?? '?'} again`;
  return `\`debussy run ${plan}\` skips the completed phases and runs ${pending.join(', ') || 'nothing'}`;
}

/**
 * What changed in the plan since the run recorded it; undefined when it cannot be told (a journal
 * from before fingerprints, a plan or config that no longer reads: `debussy audit` says why).
 */
async function planChangesSince(root: string, state: RunState): Promise<PlanChange[] | undefined> {
  if (state.planFingerprint === undefined) return undefined;
  try {
    const { config } = await loadProjectConfig(root, {});
    const { plan } = await parsePlan(path.resolve(root, state.planPath), { gateCommands: config.gates });
    // Compared as the plan says; shown redacted (a gate command can hold a password).
    return plan === undefined ? undefined : redactDeep(diffPlans(state.planFingerprint, readPlanFingerprint(plan)), createRedactor(process.env));
  } catch {
    return undefined;
  }
}

/** The changes, and which completed phases the next run verifies again. */
function planChangeText(state: RunState, changes: PlanChange[]): string[] {
  const completed = new Map(state.phaseOrder.filter((id) => state.phases[id]?.status === 'completed').map((id) => [id, 'completed']));
  const decision = decidePlanChange({ changes, completed, trustCompleted: false });
  return planChangeLines(changes, [...decision.reverify.keys()], []);
}

/** One line on the verdicts of the journal debussy cannot prove it wrote (state/journal-seal.ts); undefined when there are none. */
export function unprovenNote(state: RunState): string | undefined {
  const records = state.unproven ?? [];
  if (records.length === 0) return undefined;
  const completions = [...new Set(records.filter((r) => r.type === 'phase_ended').map((r) => r.phaseId))];
  const gates = records.filter((r) => r.type === 'gate_result').length;
  const baselines = records.filter((r) => r.type === 'baseline_result').length;
  const what = [
    ...(completions.length === 0 ? [] : [`the completion of phase ${completions.join(', ')}`]),
    ...(gates === 0 ? [] : [`${gates} gate verdict(s)`]),
    ...(baselines === 0 ? [] : [`${baselines} baseline verdict(s)`]),
  ].join(', ');
  const reasons = [...new Set(records.map((r) => describeUnproven(r.why)))].join('; ');
  const toVerify = state.phaseOrder.filter((id) => state.phases[id]?.unprovenCompletion !== undefined);
  const next = toVerify.length === 0 ? '' : `; the next \`debussy run\` verifies phase ${toVerify.join(', ')} by its gates before counting it as done`;
  return `debussy cannot prove it recorded ${what} in this journal (${reasons}): not believed${next}`;
}

export default async function statusCommand(options: StatusOptions): Promise<number> {
  const root = await projectRootForCommand(process.env);
  const last = await latestRun(root);
  if (!last?.state) {
    if (options.json) process.stdout.write(`${JSON.stringify({ run: null })}\n`);
    else process.stdout.write('No debussy run in this project yet. Start one with `debussy run PLAN`.\n');
    return 0;
  }
  const lock = await readRunLock(root);
  const state = last.state;
  const status = effectiveRunStatus(state, lock);
  const next = nextStep(state, status);
  const planChanges = await planChangesSince(root, state);
  const newerJournal = newerJournalNote(last.runId, last.journalVersion);
  if (options.json) {
    const json = {
      run: { ...state, status }, next, badLines: last.badLines, tornTail: last.tornTail, firstLineDamaged: last.firstLineDamaged === true,
      journalVersion: last.journalVersion, newerJournal: newerJournal ?? null, planChanges: planChanges ?? null,
    };
    process.stdout.write(`${inertJson(JSON.stringify(json, null, 2))}\n`);
    return 0;
  }
  process.stdout.write(`Run ${state.runId}: ${inertLine(state.planName)} (${inertLine(path.relative(process.cwd(), state.planPath) || state.planPath)})\n`);
  process.stdout.write(`Status: ${status}${state.reason ? ` (${inertLine(state.reason)})` : ''}\nStarted: ${state.startedAt}${state.endedAt ? `, ended ${state.endedAt}` : ''}\n`);
  if (last.firstLineDamaged) process.stdout.write(`Note: the journal's first line (run_started) is damaged; the run was rebuilt from the rest of ${path.relative(process.cwd(), path.join(last.dir, 'journal.ndjson'))}.\n`);
  if (last.tornTail) process.stdout.write('Note: the journal ends in a torn line (a crash mid-write); the events before it are intact.\n');
  if (newerJournal !== undefined) process.stdout.write(`Note: ${newerJournal}; shown as far as this debussy understands it.\n`);
  const unproven = unprovenNote(state);
  if (unproven !== undefined) process.stdout.write(`Note: ${unproven}.\n`);
  if (state.planChanged) {
    const at = state.planChanged;
    process.stdout.write(`At its start the plan had changed since run ${at.sinceRunId}:\n${planChangeLines(at.changes, at.reverify, at.kept).map((line) => `  ${inertLine(line)}\n`).join('')}`);
  }
  if (planChanges !== undefined && planChanges.length > 0) {
    process.stdout.write(`The plan changed since this run started:\n${planChangeText(state, planChanges).map((line) => `  ${inertLine(line)}\n`).join('')}`);
  }
  process.stdout.write(`\n${renderRunSummary({ ...state, status })}\n`);
  process.stdout.write('\nSessions:\n');
  for (const id of state.phaseOrder) {
    for (const session of state.phases[id]?.sessions ?? []) {
      const window = session.contextWindow > 0 ? ` of ${formatCount(session.contextWindow)}` : '';
      const limit = session.contextLimitTokens === undefined ? '' : `, limit ${formatCount(session.contextLimitTokens)} (${session.contextLimitSource ?? '?'})`;
      process.stdout.write(
        `  ${inertLine(id)} #${session.sessionIndex}: ${session.ended ? inertLine(session.outcome ?? 'ended') : 'running or cut off'}, peak context ${session.peakContextPercent.toFixed(1)}% (${formatCount(session.peakContextTokens)}${window} tokens${limit}), ${session.toolCalls} tool calls${session.errorClass ? `, ${inertLine(session.errorClass)}` : ''}\n`,
      );
    }
  }
  for (const id of state.phaseOrder) {
    const p = state.phases[id];
    if (p && (p.status === 'blocked' || p.status === 'failed' || p.status === 'skipped') && p.reason) process.stdout.write(`\n${inertLine(id)} ${p.status}: ${inertLine(p.reason)}`);
  }
  process.stdout.write(`\n\nNext: ${next}\n`);
  return 0;
}
