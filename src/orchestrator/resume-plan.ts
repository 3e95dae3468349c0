/**
 * What a new run inherits: phases already complete (from earlier runs of the plan, `debussy done`
 * marks, or the plan's own status column) and, when the last run was interrupted, the counters and
 * checkpoint of the phase it was in. Pure.
 */
import type { Plan } from '../plan/types.js';
import type { PhaseState, RunState } from '../state/index.js';
import type { PhaseCarry } from './phase-context.js';

export interface ResumeInput {
  plan: Plan;
  /** The last run of this plan, if any (and not --fresh). */
  prior: RunState | undefined;
  /** Whether the prior run's process is still alive (it then holds the lock; we never get here). */
  priorInterrupted: boolean;
  marks: Record<string, { status: string; ts: string }>;
}

export interface ResumePlan {
  completed: Map<string, string>;
  carry: Map<string, PhaseCarry>;
  resumedFrom: string | undefined;
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
    if (mark.status === 'completed') completed.set(id, `marked done with \`debussy done\` at ${mark.ts}`);
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
  return { completed, carry, resumedFrom };
}
