/**
 * The budget decisions: what a session may still spend, and whether a running total has reached
 * `max_cost` (the run, counting the runs it resumed) or `max_phase_cost` (the phase). Pure.
 */

export interface BudgetLimits {
  /** max_cost, USD; undefined: no run budget. */
  maxCost: number | undefined;
  /** max_phase_cost, USD; undefined: no phase budget. */
  maxPhaseCost: number | undefined;
}

/** What is spent before the running session: the run's ended sessions (resumed runs included) and the phase's. */
export interface SpentSoFar {
  runUsd: number;
  phaseUsd: number;
}

export type BudgetScope = 'run' | 'phase';

export type BudgetCheck =
  | { kind: 'within'; remainingUsd: number | undefined }
  /** `nextTurnUsd` > 0: the spend is still under the limit, but the next model turn (priced as the last one) would cross it. */
  | { kind: 'reached'; scope: BudgetScope; limitUsd: number; spentUsd: number; nextTurnUsd: number };

/** Below a hundredth of a cent left, a session could not do anything useful. */
const NOTHING_LEFT_USD = 0.0001;

/**
 * Whether the spend so far plus the running session's (`runningUsd`, exact or estimated) reaches a
 * budget, or would cross it with one more turn costing `nextTurnUsd` (the session's last call:
 * the next one re-sends at least that context); if not, how much the tightest budget leaves
 * (undefined: no budget set).
 */
export function checkBudget(limits: BudgetLimits, spent: SpentSoFar, runningUsd = 0, nextTurnUsd = 0): BudgetCheck {
  const candidates: Array<{ scope: BudgetScope; limitUsd: number; spentUsd: number }> = [];
  if (limits.maxCost !== undefined) candidates.push({ scope: 'run', limitUsd: limits.maxCost, spentUsd: spent.runUsd + runningUsd });
  if (limits.maxPhaseCost !== undefined) candidates.push({ scope: 'phase', limitUsd: limits.maxPhaseCost, spentUsd: spent.phaseUsd + runningUsd });
  let remainingUsd: number | undefined;
  for (const c of candidates) {
    const left = c.limitUsd - c.spentUsd;
    if (left < NOTHING_LEFT_USD) return { kind: 'reached', ...c, nextTurnUsd: 0 };
    if (left - nextTurnUsd < NOTHING_LEFT_USD) return { kind: 'reached', ...c, nextTurnUsd };
    remainingUsd = remainingUsd === undefined ? left : Math.min(remainingUsd, left);
  }
  return { kind: 'within', remainingUsd };
}

/** `--max-budget-usd` for claude: what the tightest budget leaves, to the cent below (claude's own guard). */
export function sessionBudgetFlag(check: BudgetCheck): string | undefined {
  if (check.kind !== 'within' || check.remainingUsd === undefined) return undefined;
  return (Math.floor(check.remainingUsd * 10_000) / 10_000).toFixed(4);
}

/** The sentence a reached budget ends the run with, and how to go on. */
/** Why the run stopped at its budget, what to do, and the command that goes on (with the budget raised). */
export function describeBudgetReached(reached: Extract<BudgetCheck, { kind: 'reached' }>, resumeCommand: string): { reason: string; hint: string; raisedCommand: string } {
  const key = reached.scope === 'run' ? 'max_cost' : 'max_phase_cost';
  const flag = reached.scope === 'run' ? '--max-cost' : '--max-phase-cost';
  const raised = suggestRaise(reached.spentUsd, reached.limitUsd);
  const raisedCommand = `${resumeCommand} ${flag} ${raised}`;
  return {
    raisedCommand,
    reason: `${reached.scope === 'run' ? 'run' : 'phase'} budget reached: spent ${usd(reached.spentUsd)} of ${key} ${usd(reached.limitUsd)}${
      reached.nextTurnUsd > 0 ? ` (the next turn, about ${usd(reached.nextTurnUsd)}, would cross it)` : ''}`,
    hint: `The work so far is committed. To go on, raise the budget: ${raisedCommand} (or set ${key} in .debussy/config.yaml).`,
  };
}

function usd(value: number): string {
  return `$${value.toFixed(2)}`;
}

/** A round figure above both the spend and the limit: the limit doubled, at least a dollar more than spent. */
function suggestRaise(spentUsd: number, limitUsd: number): string {
  const target = Math.max(limitUsd * 2, spentUsd + 1);
  return target >= 10 ? String(Math.ceil(target)) : target.toFixed(2);
}

/** Whether a budget is higher now than when a run stopped on it (a budget removed counts as raised). */
export function budgetRaised(before: { maxCostUsd?: number; maxPhaseCostUsd?: number } | undefined, now: BudgetLimits): boolean {
  const higher = (was: number | undefined, is: number | undefined) => was !== undefined && (is === undefined || is > was);
  return higher(before?.maxCostUsd, now.maxCost) || higher(before?.maxPhaseCostUsd, now.maxPhaseCost);
}

/** The hint when a run stopped by its budget is started again without raising it. */
export function raiseBudgetHint(before: { maxCostUsd?: number; maxPhaseCostUsd?: number } | undefined, spentUsd: number, resumeCommand: string): string {
  const flags = [
    ...(before?.maxCostUsd === undefined ? [] : [`--max-cost ${suggestRaise(spentUsd, before.maxCostUsd)}`]),
    ...(before?.maxPhaseCostUsd === undefined ? [] : [`--max-phase-cost ${suggestRaise(0, before.maxPhaseCostUsd)}`]),
  ];
  return `Nothing was run. Raise the budget to go on: ${resumeCommand} ${flags.join(' ')} (or set max_cost / max_phase_cost in .debussy/config.yaml).`;
}
