/**
 * Whether one more phase may start under max_cost while others run (--parallel). The run's spend
 * so far counts every phase; each running phase and the new one may still spend up to a phase's
 * expected cost (max_phase_cost when set, else the mean of the phases this run ended, else
 * nothing known). A phase never starts once the budget is reached; when the expected spend of the
 * running ones would cross it, the new one waits for them. Alone, a phase always starts below the
 * budget: its own checks stop it there, as at --parallel 1. Pure.
 */
export interface StartBudgetInput {
  maxCostUsd: number | undefined;
  maxPhaseCostUsd: number | undefined;
  spentUsd: number;
  /** Phases running now. */
  running: number;
  /** The mean spend of the phases this run ended so far; undefined before the first. */
  meanPhaseUsd: number | undefined;
}

export type StartBudget = { kind: 'start' } | { kind: 'wait' } | { kind: 'reached'; spentUsd: number; limitUsd: number };

export function decideStartBudget(input: StartBudgetInput): StartBudget {
  const limit = input.maxCostUsd;
  if (limit === undefined) return { kind: 'start' };
  if (input.spentUsd >= limit) return { kind: 'reached', spentUsd: input.spentUsd, limitUsd: limit };
  if (input.running === 0) return { kind: 'start' };
  const expected = input.maxPhaseCostUsd ?? input.meanPhaseUsd ?? 0;
  return input.spentUsd + (input.running + 1) * expected > limit ? { kind: 'wait' } : { kind: 'start' };
}
