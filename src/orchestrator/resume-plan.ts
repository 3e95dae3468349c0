/**
 * What a new run inherits: phases already complete (from earlier runs of the plan, `debussy done`
 * marks, or the plan's own status column) and the phases the last run left unfinished, whatever
 * ended it: each resumes from its checkpoint (progress, last activity, commits, the work the run
 * committed or left in the tree). A run that was interrupted (Ctrl-C, kill -9, a budget, a usage
 * limit, debussy's state lost) is continued as it was, counters and spend included; a run that
 * gave up (a failed phase, an abort such as a rejected API key, a blocked phase) leaves its work
 * and checkpoint, and the phase gets fresh counters. A completion debussy cannot prove it recorded
 * (a journal line without a valid seal, a mark made without --verify: state/journal-seal.ts) is a
 * claim: the phase is verified again by its gates before it counts as done, or taken as done with
 * --trust-completed, and either way the run says why. Pure.
 */
import type { Plan } from '../plan/types.js';
import { describeUnproven, type PhaseState, type RunState, type UnprovenWhy } from '../state/index.js';
import type { PhaseCarry } from './phase-context.js';

export interface ResumeInput {
  plan: Plan;
  /** The last run of this plan, if any (and not --fresh). */
  prior: RunState | undefined;
  /** `debussy done` marks (state/project.ts): `unproven` says why one does not prove a completion. */
  marks: Record<string, { status: string; ts: string; unproven?: UnprovenWhy }>;
  /** --trust-completed: completions debussy cannot prove are taken as done without running their gates. */
  trustCompleted?: boolean;
}

export interface ResumePlan {
  completed: Map<string, string>;
  carry: Map<string, PhaseCarry>;
  resumedFrom: string | undefined;
  /** Phases whose completion debussy cannot prove, and the one line that says what the run does about it. */
  unproven: Map<string, string>;
}

/** Why a mark or a journal's last word on a phase claims it complete without proving it; undefined when it claims nothing. */
function claimOf(id: string, input: ResumeInput): string | undefined {
  const state = input.prior?.phases[id];
  if (input.prior && state?.unprovenCompletion) {
    return `its completion recorded in run ${input.prior.runId} cannot be proven: ${describeUnproven(state.unprovenCompletion.why)}`;
  }
  const mark = input.marks[id];
  if (mark?.status !== 'completed' || mark.unproven === undefined) return undefined;
  return mark.unproven === 'not_verified'
    ? `marked done with \`debussy done\` at ${mark.ts} without --verify`
    : `its \`debussy done --verify\` mark of ${mark.ts} cannot be proven: ${describeUnproven(mark.unproven)}`;
}

/** The stream log of the phase's last session when it never ended (debussy was killed during it). */
function unendedSessionLog(state: PhaseState): { unendedSessionLog?: string } {
  const last = state.sessions[state.sessions.length - 1];
  return last === undefined || last.ended || last.streamLogPath === undefined ? {} : { unendedSessionLog: last.streamLogPath };
}

const UNFINISHED: ReadonlySet<PhaseState['status']> = new Set(['pending', 'in_progress', 'failed', 'skipped', 'blocked']);

/** A phase a session worked on that did not complete: its work and checkpoint are carried to the next run. */
function leftUnfinished(state: PhaseState): boolean {
  return state.attempts > 0 && UNFINISHED.has(state.status);
}

/**
 * Whether the next run of the plan continues `prior` (a phase to resume, or an interrupted run):
 * its uncommitted changes are then the agent's work, which the run takes on, not the user's edits.
 */
export function continuesRun(prior: RunState | undefined): boolean {
  if (prior === undefined) return false;
  return prior.status === 'running' || prior.status === 'interrupted' || Object.values(prior.phases).some(leftUnfinished);
}

export function planResume(input: ResumeInput): ResumePlan {
  const completed = new Map<string, string>();
  const carry = new Map<string, PhaseCarry>();
  for (const phase of input.plan.phases) {
    if (phase.status === 'completed') completed.set(phase.id, 'the master plan marks it complete');
  }
  for (const [id, mark] of Object.entries(input.marks)) {
    if (mark.status === 'completed' && mark.unproven === undefined) completed.set(id, `marked done with \`debussy done --verify\` at ${mark.ts}`);
  }
  const prior = input.prior;
  if (prior) {
    for (const [id, state] of Object.entries(prior.phases)) {
      if (state.status === 'completed') completed.set(id, `completed in run ${prior.runId}`);
    }
  }
  let resumedFrom: string | undefined;
  if (prior && continuesRun(prior)) {
    resumedFrom = prior.runId;
    for (const [id, state] of Object.entries(prior.phases)) {
      if (completed.has(id) || !leftUnfinished(state)) continue;
      // Interrupted in the middle (in progress): continued as it was. Given up on (failed, skipped,
      // blocked; an aborted run fails its phase): a new try, with fresh counters.
      const interrupted = state.status === 'in_progress' || state.status === 'pending';
      const counters = interrupted
        ? { restarts: state.restarts, retries: state.retries, priorCostUsd: state.costUsd + (state.priorCostUsd ?? 0) }
        : { restarts: 0, retries: 0 };
      carry.set(id, {
        ...counters,
        sessions: state.sessions.length,
        resumeReason: interrupted ? `run ${prior.runId} was interrupted during this phase` : `run ${prior.runId} stopped during this phase${state.reason === undefined ? '' : ` (${state.reason})`}`,
        ...(state.baseSha === undefined ? {} : { baseSha: state.baseSha }),
        ...(state.userChanges === undefined ? {} : { userChanges: state.userChanges }),
        // A phase given up on records what it left (uncommitted_at_stop); one that did not (an older
        // debussy) left nothing the new run can tell from the user's edits: all of it stays theirs.
        ...(state.uncommittedAtStop === undefined ? (interrupted ? {} : { uncommittedAtStop: [] }) : { uncommittedAtStop: state.uncommittedAtStop }),
        ...(state.baseline === undefined ? {} : { baseline: state.baseline }),
        resumedFrom: { runId: prior.runId, progress: state.progress, lastActivity: state.lastActivity, ...unendedSessionLog(state) },
      });
    }
  }
  const unproven = new Map<string, string>();
  for (const { id } of input.plan.phases) {
    const claim = completed.has(id) ? undefined : claimOf(id, input);
    if (claim === undefined) continue;
    if (input.trustCompleted === true) {
      completed.set(id, `${claim}; taken as done (--trust-completed)`);
      unproven.set(id, `phase ${id}: ${claim}; taken as done (--trust-completed)`);
    } else {
      carry.set(id, { ...(carry.get(id) ?? { restarts: 0, retries: 0, sessions: 0 }), reverify: claim });
      unproven.set(id, `phase ${id}: ${claim}; its gates run again before it counts as done (--trust-completed skips this)`);
    }
  }
  return { completed, carry, resumedFrom, unproven };
}

/**
 * The phases a run does not select (`--only`, `--phase`) that it knows complete, each with why: the
 * run records them as completed, because the next run resumes from the latest run's journal alone,
 * and would otherwise start again the phases earlier runs completed. Not those the master plan
 * marks complete: it still says so, and a user who sets one back to Pending means it to run. In
 * plan order. Pure.
 */
export function completionsToCarry(plan: Pick<Plan, 'phases'>, selectedIds: readonly string[], completed: ReadonlyMap<string, string>): { id: string; why: string }[] {
  return plan.phases.flatMap(({ id, status }) => {
    const why = completed.get(id);
    return selectedIds.includes(id) || status === 'completed' || why === undefined ? [] : [{ id, why }];
  });
}
