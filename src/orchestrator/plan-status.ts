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
  await markPlanStatuses(ctx, [phaseId], status, options);
}

/** Several phases at once (--parallel's phases started together): their cells, and one commit for them all. */
export async function markPlanStatuses(ctx: PhaseContext, phaseIds: readonly string[], status: PhaseStatus, options: { commitInProgress?: boolean } = {}): Promise<void> {
  if (!ctx.config.update_plan_status || phaseIds.length === 0) return;
  const marked: string[] = [];
  try {
    for (const phaseId of phaseIds) {
      if (await updatePhaseStatusCell(ctx.plan.path, phaseId, status)) marked.push(phaseId);
      else ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: 'update_plan_status: the master plan has no Status cell for this phase' });
    }
    if (marked.length > 0 && (status !== 'in_progress' || options.commitInProgress === true)) await commitPlanStatus(ctx, marked, status);
  } catch (error) {
    ctx.recorder.record({ type: 'notice', level: 'warning', phaseId: phaseIds[0], message: `update_plan_status: could not update the master plan: ${errorMessage(error)}` });
  }
}

/**
 * --parallel, in a merge not yet committed: the phase's Status cell goes into the merge's own
 * commit instead of a commit of its own after it, when the master plan in the work tree is the
 * merge's version (nothing else of it uncommitted). Writes the cell and stages the plan; false
 * when it left both alone (turned off, another change in the plan, no cell), and the cell is then
 * written and committed after the merge as at any other time (markPlanStatus).
 */
export async function stagePlanStatusInMerge(ctx: PhaseContext, phaseId: string, status: PhaseStatus): Promise<boolean> {
  const plan = ctx.config.update_plan_status && ctx.useGit ? planInRepository(ctx) : undefined;
  if (plan === undefined) return false;
  try {
    // Stage 0 of the index: what the merge will commit.
    if ((await readFile(ctx.plan.path, 'utf8')) !== (await gitStdout(ctx.root, ['show', `:${plan.gitPath}`]))) return false;
    if (!(await updatePhaseStatusCell(ctx.plan.path, phaseId, status))) return false;
    await gitStdout(ctx.root, ['add', '--', plan.gitPath]);
    return true;
  } catch {
    return false; // not tracked, or git refused: the cell is written after the merge instead
  }
}

/** The master plan's path in the run's repository (as shown, and as git names it), or undefined when it lies outside. */
function planInRepository(ctx: PhaseContext): { relative: string; gitPath: string } | undefined {
  const relative = path.relative(ctx.root, ctx.plan.path);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return { relative, gitPath: `./${relative.split(path.sep).join('/')}` };
}

/** Commits the master plan when the phases' status cells are its only change from HEAD. */
async function commitPlanStatus(ctx: PhaseContext, phaseIds: readonly string[], status: PhaseStatus): Promise<void> {
  if (!ctx.useGit) return;
  const phaseId = phaseIds[0] ?? '';
  const plan = planInRepository(ctx);
  if (plan === undefined) return; // not in this repository
  const { relative } = plan;
  const now = await readFile(ctx.plan.path, 'utf8');
  let committed: string;
  try {
    committed = await gitStdout(ctx.root, ['show', `HEAD:${plan.gitPath}`]);
  } catch {
    return; // not tracked (or no commit yet): nothing that a dirty-tree check would see
  }
  if (now === committed) return;
  if (phaseIds.reduce((text, id) => withStatusCell(text, id, status) ?? text, committed) !== now) {
    ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: `update_plan_status: ${relative} has other uncommitted changes; its status change is left uncommitted with them` });
    return;
  }
  const which = phaseIds.length === 1 ? `phase ${phaseId}` : `phases ${phaseIds.join(', ')}`;
  const result = await commitPaths(ctx.root, ctx.recorder.redact(`${ctx.plan.name}: ${which} ${status.replace('_', ' ')}\n\nThe master plan's status column, updated by debussy (update_plan_status).`), [relative]);
  if (!result.committed && result.reason !== 'nothing-to-commit') {
    ctx.recorder.record({ type: 'commit_failed', phaseId, message: `update_plan_status: the status change of ${relative} was not committed (${result.reason ?? 'error'}): ${(result.error ?? '').split('\n')[0] ?? ''}` });
  }
}
