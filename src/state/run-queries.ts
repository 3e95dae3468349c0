/** Questions the orchestrator and the CLI ask of a folded run. Pure. */
import type { GateResultEvent, RunStatus, SignalEvent } from './events.js';
import type { PhaseState, RunState, SessionSummary } from './run-state.js';

/** The newest signal the agent sent for this attempt; a signal from an earlier attempt never counts. */
export function signalForAttempt(phase: PhaseState, attemptId: string): SignalEvent | undefined {
  for (let i = phase.signals.length - 1; i >= 0; i--) {
    const signal = phase.signals[i];
    if (signal?.attemptId === attemptId) return signal;
  }
  return undefined;
}

/** Gate results recorded for one attempt, in order. */
export function gatesForAttempt(phase: PhaseState, attemptId: string): GateResultEvent[] {
  return phase.gates.filter((gate) => gate.attemptId === attemptId);
}

/** Sessions that started but have no session_ended: after a crash, their agents may still run. */
export function unfinishedSessions(state: RunState): { phaseId: string; session: SessionSummary }[] {
  const open: { phaseId: string; session: SessionSummary }[] = [];
  for (const phaseId of state.phaseOrder) {
    for (const session of state.phases[phaseId]?.sessions ?? []) {
      if (!session.ended) open.push({ phaseId, session });
    }
  }
  return open;
}

/**
 * The status to show: a run the journal calls `running` is really running only while the live
 * lock is its own; otherwise the process that ran it is gone and it was interrupted.
 */
export function effectiveRunStatus(state: RunState, lock: { runId: string; alive: boolean } | undefined): RunStatus {
  if (state.status !== 'running') return state.status;
  return lock?.alive === true && lock.runId === state.runId ? 'running' : 'interrupted';
}
