/**
 * Merges a completed phase's branch into the run's branch (--parallel), one merge at a time: the
 * merge is made without committing, the gates of the phases merged so far run on the merged tree,
 * and only then is it committed. A conflict or a gate the merge breaks is never resolved by
 * guessing: the merge is aborted (the run's tree back as it was), the phase gets one remediation
 * session in its worktree on top of the merged work, and the merge is tried again; if it still
 * fails, the run stops with both branches kept.
 */
import { abortMerge, commitMerge, filesWithConflictMarkers, mergeInProgress, mergeIntoWorktree, startMerge } from '../../git/worktree.js';
import type { Phase } from '../../plan/types.js';
import { runPhase } from '../phase-runner.js';
import type { PhaseContext } from '../phase-context.js';
import { phaseGatesOf, runRegressionGates, toleratedGates } from '../regression-check.js';
import { regressionGates } from '../../verification/regression.js';
import { decideMerge, type MergeCheck } from './merge-order.js';

export interface MergeTarget {
  phase: Phase;
  branch: string;
  worktree: string;
  /** The branch checked out in the run's root. */
  runBranch: string;
  /** Phases merged by this run so far: their gates run on the merged tree. */
  mergedSoFar: ReadonlySet<string>;
  /** The phase's context in its worktree, for a remediation session. */
  phaseContext: () => PhaseContext;
  /** Run before the merge is committed, its changes staged into it (the phase's Status cell). */
  beforeCommit?: () => Promise<void>;
}

export type MergeResult = { kind: 'merged' } | { kind: 'interrupted' } | { kind: 'failed'; reason: string; files: string[] };

async function checkMerge(ctx: PhaseContext, target: MergeTarget): Promise<MergeCheck | 'interrupted'> {
  const started = await startMerge(ctx.root, target.branch);
  if (started.kind === 'conflict') return { kind: 'conflict', files: started.files };
  if (started.kind === 'error') return { kind: 'conflict', files: [started.message] };
  if (started.kind === 'up_to_date') return { kind: 'clean' };
  const merged = new Set([...target.mergedSoFar, target.phase.id]);
  const gates = regressionGates(phaseGatesOf(ctx.plan), merged, { skip: toleratedGates(await ctx.recorder.state()) });
  const broken = await runRegressionGates(ctx, gates, { mode: 'each', afterPhaseId: target.phase.id });
  if (ctx.interrupt.aborted) {
    await abortMerge(ctx.root);
    return 'interrupted';
  }
  if (broken.length === 0) return { kind: 'clean' };
  await abortMerge(ctx.root);
  return { kind: 'gates_broken', gates: broken.map((gate) => `${gate.name} (phase ${gate.phaseId})`) };
}

function remediationReason(target: MergeTarget, check: Exclude<MergeCheck, { kind: 'clean' }>, files: readonly string[]): string {
  const merged = `the run's branch (${target.runBranch}, with the work of the phases that completed meanwhile) was merged into this phase's branch`;
  if (check.kind === 'conflict' && files.length > 0) {
    return `${merged}, and it conflicts in ${files.join(', ')}: that merge is committed with git's conflict markers. Resolve every conflict keeping what both sides meant, remove every marker, and make this phase's gates pass`;
  }
  const gates = check.kind === 'gates_broken' ? check.gates.join(', ') : 'the merged tree';
  return `${merged}, and the merged tree fails ${gates}. Make them pass without undoing the other phases' work, and keep this phase's gates passing`;
}

export async function mergePhase(ctx: PhaseContext, target: MergeTarget): Promise<MergeResult> {
  const { phase, branch, worktree } = target;
  let remediated = false;
  for (;;) {
    if (ctx.interrupt.aborted) return { kind: 'interrupted' };
    const check = await checkMerge(ctx, target);
    if (check === 'interrupted') return { kind: 'interrupted' };
    const decision = decideMerge(phase.id, check, remediated);
    const files = check.kind === 'conflict' ? check.files : check.kind === 'gates_broken' ? check.gates : [];
    if (decision.kind === 'commit') {
      if (await mergeInProgress(ctx.root)) {
        await target.beforeCommit?.();
        await commitMerge(ctx.root, ctx.recorder.redact(`${ctx.plan.name}: merge phase ${phase.id} (${phase.title})\n\nThe branch ${branch}, merged by debussy (--parallel).`));
      }
      ctx.recorder.record({ type: 'phase_branch', phaseId: phase.id, stage: 'merged', branch, worktree });
      return { kind: 'merged' };
    }
    if (decision.kind === 'stop' || check.kind === 'clean') {
      const reason = decision.kind === 'stop' ? decision.reason : 'the merge failed';
      ctx.recorder.record({ type: 'phase_branch', phaseId: phase.id, stage: 'merge_failed', branch, worktree, files, reason });
      return { kind: 'failed', reason, files };
    }
    remediated = true;
    ctx.recorder.record({ type: 'phase_branch', phaseId: phase.id, stage: 'conflict', branch, worktree, files, reason: decision.reason });
    const conflicted = await mergeIntoWorktree(worktree, target.runBranch, `${ctx.plan.name}: merge ${target.runBranch} into phase ${phase.id}${check.kind === 'conflict' ? ', conflicts left for the agent to resolve' : ''}\n\nMade by debussy (--parallel): ${decision.reason}.`);
    const phaseCtx = target.phaseContext();
    const state = (await ctx.recorder.state()).phases[phase.id];
    const result = await runPhase(phaseCtx, phase, {
      restarts: 0, retries: 0, sessions: state?.sessions.length ?? 0,
      resumeReason: remediationReason(target, check, conflicted),
      ...(state?.baseSha === undefined ? {} : { baseSha: state.baseSha }),
      ...(state?.baseline === undefined ? {} : { baseline: state.baseline }),
    });
    if (result.status === 'interrupted' || phaseCtx.interrupt.aborted) return { kind: 'interrupted' };
    if (result.status !== 'completed') {
      const reason = `the merge remediation of phase ${phase.id} ended ${result.status}${'reason' in result ? ` (${result.reason})` : ''}`;
      ctx.recorder.record({ type: 'phase_branch', phaseId: phase.id, stage: 'merge_failed', branch, worktree, files, reason });
      return { kind: 'failed', reason, files };
    }
    const markers = await filesWithConflictMarkers(worktree, conflicted);
    if (markers.length > 0) {
      const reason = `phase ${phase.id} completed its merge remediation with conflict markers left in ${markers.join(', ')}`;
      ctx.recorder.record({ type: 'phase_branch', phaseId: phase.id, stage: 'merge_failed', branch, worktree, files: markers, reason });
      return { kind: 'failed', reason, files: markers };
    }
  }
}
