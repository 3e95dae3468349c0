/**
 * `debussy status`: the current or last run, each phase, and what `debussy run` will do next; while
 * a run works, its session's live figures and each phase's last progress entry. What the journal
 * holds of the plan and the agent (names, titles, reasons) is shown inert.
 */
import path from 'node:path';
import {
  describeUnproven, effectiveRunStatus, latestRun, liveSessionOf, liveSessionPath, newerJournalNote, readLiveSession, readRunLock, withLiveSession,
  type BadLine, type LiveSession, type RunState, type SessionSummary,
} from '../../state/index.js';
import { loadProjectConfig, type DebussyConfig } from '../../config/index.js';
import { parsePlan, type Plan } from '../../plan/index.js';
import { describeDryRun } from '../dry-run.js';
import { describeNext, type UpcomingPhase } from '../status-next.js';
import { formatCost } from '../../report/format-units.js';
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

/** The plan and config as they read now; undefined when they do not (`debussy audit` says why). */
async function currentPlan(root: string, state: RunState): Promise<{ plan: Plan; config: DebussyConfig } | undefined> {
  try {
    const { config } = await loadProjectConfig(root, {});
    const { plan } = await parsePlan(path.resolve(root, state.planPath), { gateCommands: config.gates });
    return plan === undefined ? undefined : { plan, config };
  } catch {
    return undefined;
  }
}

/**
 * What changed in the plan since the run recorded it; undefined when it cannot be told (a journal
 * from before fingerprints, a plan or config that no longer reads).
 */
function planChangesSince(state: RunState, current: { plan: Plan } | undefined): PlanChange[] | undefined {
  if (state.planFingerprint === undefined || current === undefined) return undefined;
  // Compared as the plan says; shown redacted (a gate command can hold a password).
  return redactDeep(diffPlans(state.planFingerprint, readPlanFingerprint(current.plan)), createRedactor(process.env));
}

/** What the next `debussy run` would do with each phase (the dry run's decision); undefined without a readable plan. */
async function upcomingPhases(root: string, current: { plan: Plan; config: DebussyConfig } | undefined): Promise<UpcomingPhase[] | undefined> {
  if (current === undefined) return undefined;
  try {
    return (await describeDryRun(root, current.plan, current.config)).phases.map((phase) => ({ id: phase.id, action: phase.action }));
  } catch {
    return undefined;
  }
}

/** `1 #2: running, context 41.0% (82,000 of 200,000 tokens, limit 160,000), 12 tool calls, ~$0.42 so far, as of 14:02:11`. */
function liveSessionLine(session: SessionSummary, live: LiveSession): string {
  const window = live.contextWindow > 0 ? ` of ${formatCount(live.contextWindow)}` : '';
  const limit = live.contextLimitTokens === undefined ? '' : `, limit ${formatCount(live.contextLimitTokens)}`;
  const cost = `${live.costEstimated ? '~' : ''}${formatCost(live.costUsd)} so far`;
  const at = new Date(live.updatedAt).toTimeString().slice(0, 8);
  return `running, context ${live.contextPercent.toFixed(1)}% (${formatCount(live.contextTokens)}${window} tokens${limit}), ${Math.max(session.toolCalls, live.toolCalls)} tool calls, ${cost}, as of ${at}`;
}

/** Each phase's last progress entry (`debussy progress`), and how many it has. */
function progressLines(state: RunState): string[] {
  return state.phaseOrder.flatMap((id) => {
    const progress = state.phases[id]?.progress ?? [];
    const last = progress.at(-1);
    if (last === undefined) return [];
    const at = Number.isFinite(Date.parse(last.ts)) ? new Date(last.ts).toTimeString().slice(0, 8) : last.ts;
    return [`  ${inertLine(id)}: ${inertLine(last.message)} (${at}${progress.length > 1 ? `; ${progress.length} entries` : ''})`];
  });
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

/** "1 line of the journal could not be read and was left out (line 7: session_ended: costUsd: ...)". */
function badLinesNote(count: number, first: BadLine): string {
  const which = `line ${first.line}: ${inertLine(first.problem ?? 'not JSON')}`;
  return count === 1
    ? `1 line of the journal could not be read and was left out (${which})`
    : `${count} lines of the journal could not be read and were left out (the first, ${which})`;
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
  const current = await currentPlan(root, state);
  const planArg = path.relative(process.cwd(), state.planPath) || state.planPath;
  const next = describeNext({ state, status, planArg, upcoming: await upcomingPhases(root, current) });
  const planChanges = planChangesSince(state, current);
  // The running session's figures, which the journal has only once it ends (state/live-session.ts).
  const live = status === 'running' ? liveSessionOf(state, readLiveSession(liveSessionPath(path.join(last.dir, 'sessions')))) : undefined;
  const shown = live === undefined ? state : withLiveSession(state, live);
  const newerJournal = newerJournalNote(last.runId, last.journalVersion);
  if (options.json) {
    const json = {
      run: { ...state, status }, live: live ?? null, next, badLines: last.badLines, tornTail: last.tornTail, firstLineDamaged: last.firstLineDamaged === true,
      journalVersion: last.journalVersion, newerJournal: newerJournal ?? null, planChanges: planChanges ?? null,
    };
    process.stdout.write(`${inertJson(JSON.stringify(json, null, 2))}\n`);
    return 0;
  }
  process.stdout.write(`Run ${state.runId}: ${inertLine(state.planName)} (${inertLine(path.relative(process.cwd(), state.planPath) || state.planPath)})\n`);
  process.stdout.write(`Status: ${status}${state.reason ? ` (${inertLine(state.reason)})` : ''}\nStarted: ${state.startedAt}${state.endedAt ? `, ended ${state.endedAt}` : ''}\n`);
  if (last.firstLineDamaged) process.stdout.write(`Note: the journal's first line (run_started) is damaged; the run was rebuilt from the rest of ${path.relative(process.cwd(), path.join(last.dir, 'journal.ndjson'))}.\n`);
  if (last.tornTail) process.stdout.write('Note: the journal ends in a torn line (a crash mid-write); the events before it are intact.\n');
  if (last.firstBadLine) process.stdout.write(`Note: ${badLinesNote(last.badLines - (last.firstLineDamaged ? 1 : 0), last.firstBadLine)}.\n`);
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
  process.stdout.write(`\n${renderRunSummary({ ...shown, status })}\n`);
  process.stdout.write('\nSessions:\n');
  for (const id of state.phaseOrder) {
    for (const session of state.phases[id]?.sessions ?? []) {
      if (live !== undefined && live.phaseId === id && live.attemptId === session.attemptId && live.sessionIndex === session.sessionIndex) {
        process.stdout.write(`  ${inertLine(id)} #${session.sessionIndex}: ${liveSessionLine(session, live)}\n`);
        continue;
      }
      const window = session.contextWindow > 0 ? ` of ${formatCount(session.contextWindow)}` : '';
      const limit = session.contextLimitTokens === undefined ? '' : `, limit ${formatCount(session.contextLimitTokens)} (${session.contextLimitSource ?? '?'})`;
      process.stdout.write(
        `  ${inertLine(id)} #${session.sessionIndex}: ${session.ended ? inertLine(session.outcome ?? 'ended') : 'running or cut off'}, peak context ${session.peakContextPercent.toFixed(1)}% (${formatCount(session.peakContextTokens)}${window} tokens${limit}), ${session.toolCalls} tool calls${session.errorClass ? `, ${inertLine(session.errorClass)}` : ''}\n`,
      );
    }
  }
  const progress = progressLines(state);
  if (progress.length > 0) process.stdout.write(`\nProgress (the last entry of each phase):\n${progress.join('\n')}\n`);
  for (const id of state.phaseOrder) {
    const p = state.phases[id];
    if (p && (p.status === 'blocked' || p.status === 'failed' || p.status === 'skipped') && p.reason) process.stdout.write(`\n${inertLine(id)} ${p.status}: ${inertLine(p.reason)}`);
  }
  process.stdout.write(`\n\nNext: ${next}\n`);
  return 0;
}
