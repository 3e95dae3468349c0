/**
 * What a run has spent, read from its folded journal: its sessions' costs (claude's figures and
 * debussy's estimates) plus what the interrupted runs it continues spent (run_started's
 * priorCostUsd); for a run debussy was killed in, with its unended sessions' spend put in first
 * (withUnendedSpend). The budget counts this; status, the end table and --json show it. Pure.
 */
import type { RunState } from '../state/run-state.js';
import type { SpendFigure } from './session-spend.js';

export interface RunSpend {
  usd: number;
  /** Of usd, what is estimated (sessions stopped before claude's result). */
  estimatedUsd: number;
  /** Sessions whose cost is neither reported nor estimated (older journals). */
  unknownSessions: number;
}

export function runSpend(state: RunState): RunSpend {
  let usd = state.priorCostUsd ?? 0;
  let estimatedUsd = state.priorCostEstimatedUsd ?? 0;
  let unknownSessions = 0;
  for (const phase of Object.values(state.phases)) {
    usd += phase.costUsd;
    estimatedUsd += phase.estimatedCostUsd ?? 0;
    unknownSessions += phase.sessionsWithoutCost;
  }
  return { usd, estimatedUsd, unknownSessions };
}

/** What a phase spent in this run and, for a resumed phase, in the runs before (PhaseCarry.priorCostUsd). */
export function phaseSpendUsd(state: RunState, phaseId: string, priorUsd = 0): number {
  return priorUsd + (state.phases[phaseId]?.costUsd ?? 0);
}

/**
 * The run's state with what its sessions that never ended spent (debussy was killed during them;
 * figures read back from their stream logs, by log path: stream-log-spend.ts) put in as their
 * session_ended would have: the session's cost, the phase's total and its estimated part. Pure;
 * `state` is left as it was.
 */
export function withUnendedSpend(state: RunState, spentByLog: ReadonlyMap<string, SpendFigure>): RunState {
  const settled = structuredClone(state);
  for (const phase of Object.values(settled.phases)) {
    for (const session of phase.sessions) {
      const figure = session.ended || session.streamLogPath === undefined ? undefined : spentByLog.get(session.streamLogPath);
      if (figure === undefined) continue;
      session.costUsd = figure.usd;
      phase.costUsd += figure.usd;
      if (figure.estimated) {
        session.costEstimated = true;
        phase.estimatedCostUsd = (phase.estimatedCostUsd ?? 0) + figure.usd;
      }
    }
  }
  return settled;
}
