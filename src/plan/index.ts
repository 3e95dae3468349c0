export * from './types.js';
export { parsePlan, type PlanOptions, type ParsedPlan } from './parse.js';
export { auditPlan } from './audit.js';
export { executionOrder, findCycles } from './graph.js';
export { requirePhase } from './require-phase.js';
export { normaliseStatus, statusLabel } from './status.js';
export { formatFinding } from './format.js';
export { describePlan, renderPlanView, type PlanView, type PhaseView } from './describe-plan.js';
export { updatePhaseStatusCell } from './status-cell.js';
