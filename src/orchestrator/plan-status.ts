/** Keeps the Status cell of MASTER_PLAN.md in step with the run, when `update_plan_status` is on. */
import { updatePhaseStatusCell } from '../plan/index.js';
import type { PhaseStatus } from '../plan/types.js';
import type { PhaseContext } from './phase-context.js';

export async function markPlanStatus(ctx: PhaseContext, phaseId: string, status: PhaseStatus): Promise<void> {
  if (!ctx.config.update_plan_status) return;
  try {
    const updated = await updatePhaseStatusCell(ctx.plan.path, phaseId, status);
    if (!updated) ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: 'update_plan_status: the master plan has no Status cell for this phase' });
  } catch (error) {
    ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: `update_plan_status: could not update the master plan: ${error instanceof Error ? error.message : String(error)}` });
  }
}
