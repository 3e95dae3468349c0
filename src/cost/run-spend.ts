/**
 * What a run has spent, read from its folded journal: its sessions' costs (claude's figures and
 * debussy's estimates) plus what the interrupted runs it continues spent (run_started's
 * priorCostUsd). The budget counts this; status, the end table and --json show it. Pure.
 */
import type { RunState } from '../state/run-state.js';

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
