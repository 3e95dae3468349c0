/**
 * What a new run inherits: phases already complete (from earlier runs of the plan, `debussy done`
 * marks, or the plan's own status column) and, when the last run was interrupted, the counters and
 * checkpoint of the phase it was in. A completion debussy cannot prove it recorded (a journal line
 * without a valid seal, a mark made without --verify: state/journal-seal.ts) is a claim: the phase
 * is verified again by its gates before it counts as done, or taken as done with --trust-completed,
 * and either way the run says why. Pure.
 */
import type { Plan } from '../plan/types.js';
import { describeUnproven, type PhaseState, type RunState, type UnprovenWhy } from '../state/index.js';
import type { PhaseCarry } from './phase-context.js';

export interface ResumeInput {
  plan: Plan;
  /** The last run of this plan, if any (and not --fresh). */
  prior: RunState | undefined;
  /** Whether the prior run's process is still alive (it then holds the lock; we never get here). */
  priorInterrupted: boolean;
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
  if (prior && input.priorInterrupted) {
    resumedFrom = prior.runId;
    for (const [id, state] of Object.entries(prior.phases)) {
      if (completed.has(id) || state.attempts === 0) continue;
      if (state.status !== 'in_progress' && state.status !== 'pending') continue;
      carry.set(id, {
        restarts: state.restarts,
        retries: state.retries,
        sessions: state.sessions.length,
        resumeReason: `run ${prior.runId} was interrupted during this phase`,
        priorCostUsd: state.costUsd + (state.priorCostUsd ?? 0),
        ...(state.baseSha === undefined ? {} : { baseSha: state.baseSha }),
        ...(state.userChanges === undefined ? {} : { userChanges: state.userChanges }),
        ...(state.uncommittedAtStop === undefined ? {} : { uncommittedAtStop: state.uncommittedAtStop }),
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
