export { budgetRaised, checkBudget, describeBudgetReached, raiseBudgetHint, sessionBudgetFlag, type BudgetCheck, type BudgetLimits, type BudgetScope, type SpentSoFar } from './budget.js';
export { estimateCost, NO_TOKENS, type CostEstimate, type TokenUsage } from './estimate.js';
export { FALLBACK_PRICE, PRICES_AS_OF, priceFor, SHIPPED_PRICES, withPriceOverrides, type ModelPrice, type PriceTable } from './prices.js';
export { SessionSpend, type SpendFigure } from './session-spend.js';
export { phaseSpendUsd, runSpend, withUnendedSpend, type RunSpend } from './run-spend.js';
export { settleUnendedSpend, spendFromStreamLog } from './stream-log-spend.js';
