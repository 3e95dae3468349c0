/**
 * What an earlier run left in worktrees, read from its state. Apart from the supervisor so that a
 * run at --parallel 1 can ask without loading the supervisor. Pure.
 */
import type { RunState } from '../../state/index.js';

/** A phase completed in an earlier run whose branch never made it into the run's branch (debussy stopped first). */
export function unmergedPhases(prior: RunState | undefined): { id: string; branch: string; worktree: string }[] {
  if (prior === undefined) return [];
  return Object.values(prior.phases).flatMap((phase) => (phase.branch !== undefined && !phase.branch.merged && phase.status === 'completed' ? [{ id: phase.id, branch: phase.branch.name, worktree: phase.branch.worktree }] : []));
}

/** Whether the run must go on with worktrees even at --parallel 1: an earlier run left phases in them. */
export function priorUsedWorktrees(prior: RunState | undefined): boolean {
  return prior !== undefined && Object.values(prior.phases).some((phase) => phase.branch !== undefined && !phase.branch.merged);
}
