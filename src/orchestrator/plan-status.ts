/**
 * Keeps the Status cell of MASTER_PLAN.md in step with the run, when `update_plan_status` is on.
 * A phase's last status is written after its last commit, so it gets a commit of its own (the
 * master plan alone), or the next `debussy run` would find the tree dirty. It is committed only
 * when the cell is all that differs from HEAD: the user's own edits to the plan are never swept in.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { commitPaths } from '../git/index.js';
import { gitStdout } from '../git/run-git.js';
import { updatePhaseStatusCell } from '../plan/index.js';
import { withStatusCell } from '../plan/status-cell.js';
import type { PhaseStatus } from '../plan/types.js';
import type { PhaseContext } from './phase-context.js';
import { errorMessage } from '../errors/error-message.js';

/** `commitInProgress`: --parallel keeps the run's work tree clean for its merges, so "in progress" is committed too. */
export async function markPlanStatus(ctx: PhaseContext, phaseId: string, status: PhaseStatus, options: { commitInProgress?: boolean } = {}): Promise<void> {
  if (!ctx.config.update_plan_status) return;
  try {
    const updated = await updatePhaseStatusCell(ctx.plan.path, phaseId, status);
    if (!updated) {
      ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: 'update_plan_status: the master plan has no Status cell for this phase' });
      return;
    }
    if (status !== 'in_progress' || options.commitInProgress === true) await commitPlanStatus(ctx, phaseId, status);
  } catch (error) {
    ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: `update_plan_status: could not update the master plan: ${errorMessage(error)}` });
  }
}

/** Commits the master plan when the status cell is its only change from HEAD. */
async function commitPlanStatus(ctx: PhaseContext, phaseId: string, status: PhaseStatus): Promise<void> {
  if (!ctx.useGit) return;
  const relative = path.relative(ctx.root, ctx.plan.path);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return; // not in this repository
  const now = await readFile(ctx.plan.path, 'utf8');
  let committed: string;
  try {
    committed = await gitStdout(ctx.root, ['show', `HEAD:./${relative.split(path.sep).join('/')}`]);
  } catch {
    return; // not tracked (or no commit yet): nothing that a dirty-tree check would see
  }
  if (now === committed) return;
  if (withStatusCell(committed, phaseId, status) !== now) {
    ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: `update_plan_status: ${relative} has other uncommitted changes; its status change is left uncommitted with them` });
    return;
  }
  const result = await commitPaths(ctx.root, ctx.recorder.redact(`${ctx.plan.name}: phase ${phaseId} ${status.replace('_', ' ')}\n\nThe master plan's status column, updated by debussy (update_plan_status).`), [relative]);
  if (!result.committed && result.reason !== 'nothing-to-commit') {
    ctx.recorder.record({ type: 'commit_failed', phaseId, message: `update_plan_status: the status change of ${relative} was not committed (${result.reason ?? 'error'}): ${(result.error ?? '').split('\n')[0] ?? ''}` });
  }
}
