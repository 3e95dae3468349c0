/**
 * Runs a plan's phases side by side (--parallel N), in this process: each ready phase in its own
 * worktree and branch through the same runPhase as one at a time, sharing the run's one journal,
 * budget, circuit breaker, usage-limit pause and reporter. Completed phases merge into the run's
 * branch one at a time (merge-phase.ts); phases that become ready start from the merged result.
 * The decisions (which phase is ready, merge order, the budget at a start, what a phase's end
 * means) are pure and live beside this file; this one carries them out.
 */
import { existsSync } from 'node:fs';
import { GitError } from '../../errors/index.js';
import { addWorktree, currentBranch, removeWorktree } from '../../git/worktree.js';
import type { Phase } from '../../plan/types.js';
import { runSpend } from '../../cost/index.js';
import type { RunState } from '../../state/index.js';
import { markPlanStatuses, stagePlanStatusInMerge } from '../plan-status.js';
import type { PhaseCarry, PhaseContext, PhaseResult } from '../phase-context.js';
import { runPhase } from '../phase-runner.js';
import { mergePhase } from './merge-phase.js';
import { nextToMerge } from './merge-order.js';
import { afterPhaseResult, firstStop, type RunStop } from './phase-result.js';
import { phaseBranchName, phaseContextIn, phaseWorktreeDir } from './phase-worktree.js';
import { readyPhases, unreachablePhases } from './ready-phases.js';
import { decideStartBudget } from './start-budget.js';
import { UsagePause } from './usage-pause.js';
import { setUpWorktree } from './worktree-setup.js';
import { unmergedPhases } from './prior-worktrees.js';

export interface ParallelInput {
  /** The run's context: its root is the user's work tree, on the run's branch. */
  ctx: PhaseContext;
  /** The phases to run, in execution order. */
  toRun: readonly Phase[];
  carry: ReadonlyMap<string, PhaseCarry>;
  /** Phases complete before this run (and merged): updated as this run's phases merge. */
  done: Set<string>;
  /** The run this one continues: where its phases' worktrees are, and which are not merged yet. */
  prior: RunState | undefined;
  maxParallel: number;
  /**
   * Where a phase runs once its worktree is made: here, by default (runPhase in the worktree); the
   * queue runs it on a worker and brings its branch back into the worktree (queue/submitter.ts).
   */
  runAt?: (phaseCtx: PhaseContext, phase: Phase, carry: PhaseCarry, where: { branch: string; worktree: string }) => Promise<PhaseResult>;
}

export interface ParallelOutcome {
  stop: RunStop | undefined;
  problems: string[];
  /** Phases completed by sessions of this run, in merge order. */
  completedThisRun: string[];
  verifiedLast: string | undefined;
}

interface Slot {
  phase: Phase;
  branch: string;
  worktree: string;
  /** Made by this run (not found again): worktree_setup runs in it before the phase. */
  made: boolean;
}

export async function runPhasesInParallel(input: ParallelInput): Promise<ParallelOutcome> {
  const { ctx, toRun, done } = input;
  const runBranch = await currentBranch(ctx.root);
  if (runBranch === undefined) throw new GitError('--parallel merges each phase into the branch checked out, and HEAD is detached', { hint: 'Check out a branch (git switch -c my-run), then run again.' });
  // The run's own stop (a block, an abort, a pause) ends the other phases as a Ctrl-C would: work committed, resumable.
  const stopRun = new AbortController();
  const interrupt = AbortSignal.any([ctx.interrupt, stopRun.signal]);
  const run: PhaseContext = { ...ctx, interrupt, usagePause: new UsagePause() };
  const order = toRun.map((phase) => phase.id);
  const byId = new Map(toRun.map((phase) => [phase.id, phase]));
  const slots = new Map<string, Slot>();
  const started = new Set<string>();
  const givenUp = new Set<string>();
  const mergedThisRun = new Set<string>();
  const running = new Map<string, Promise<void>>();
  const ended: { id: string; result: PhaseResult }[] = [];
  const awaiting: { id: string; completedSeq: number }[] = [];
  const endedSpends: number[] = [];
  const outcome: ParallelOutcome = { stop: undefined, problems: [], completedThisRun: [], verifiedLast: undefined };
  let seq = 0;
  let wake: () => void = () => {};
  const stop = (next: RunStop) => {
    outcome.stop = firstStop(outcome.stop, next);
    stopRun.abort();
  };
  const markStatuses = (ids: readonly string[], status: Parameters<typeof markPlanStatuses>[2]) => markPlanStatuses(run, ids, status, { commitInProgress: true });
  const markStatus = (id: string, status: Parameters<typeof markPlanStatuses>[2]) => markStatuses([id], status);

  /** The phase's worktree: the one an earlier run left for it, or a new one from the run's branch as merged so far. */
  const slotFor = async (phase: Phase): Promise<Slot> => {
    const left = input.prior?.phases[phase.id]?.branch;
    const branch = left?.name ?? phaseBranchName(ctx.runId, phase.id);
    const worktree = left !== undefined && existsSync(left.worktree) ? left.worktree : phaseWorktreeDir(ctx.root, ctx.runId, phase.id);
    const made = (await addWorktree(ctx.root, worktree, branch, 'HEAD')) === 'added';
    run.recorder.record({ type: 'phase_branch', phaseId: phase.id, stage: 'worktree', branch, worktree });
    const slot = { phase, branch, worktree, made };
    slots.set(phase.id, slot);
    return slot;
  };

  for (const left of unmergedPhases(input.prior)) {
    const phase = byId.get(left.id) ?? ctx.plan.phases.find((p) => p.id === left.id);
    if (phase === undefined) continue;
    done.delete(left.id); // complete, but its dependents start from the run's branch once it is merged
    started.add(left.id);
    await slotFor(phase);
    awaiting.push({ id: left.id, completedSeq: seq++ });
  }

  /** The phase's worktree, or undefined when none can be made (the phase failed, its dependents are skipped). */
  const prepare = async (phase: Phase): Promise<Slot | undefined> => {
    started.add(phase.id);
    try {
      return await slotFor(phase);
    } catch (error) {
      // No worktree (a path git refuses, a branch checked out elsewhere): the phase cannot run; its dependents are skipped.
      const reason = `its worktree could not be made: ${error instanceof Error ? error.message : String(error)}`;
      givenUp.add(phase.id);
      run.recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'failed', reason });
      outcome.problems.push(`${phase.id} failed (${reason})`);
      return undefined;
    }
  };

  const launch = (phase: Phase, slot: Slot): void => {
    const phaseCtx = phaseContextIn(run, slot.worktree, interrupt, done);
    const runAt = input.runAt ?? runPhase;
    const setup = ctx.config.worktree_setup;
    // The setup runs inside the phase's task, so one phase's `npm ci` holds back no other phase;
    // under --queue the phase runs in a worker's checkout, which sets itself up (queue/worker.ts).
    const prepared = slot.made && setup !== undefined && input.runAt === undefined ? setUpWorktree(run, phase.id, slot, setup) : Promise.resolve(undefined);
    const task = prepared
      .then(async (unready) => {
        if (unready === undefined) return runAt(phaseCtx, phase, input.carry.get(phase.id) ?? { restarts: 0, retries: 0, sessions: 0 }, slot);
        if (unready.status !== 'interrupted') run.recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'failed', reason: 'reason' in unready ? unready.reason : 'worktree_setup failed' });
        return unready;
      })
      .catch((error: unknown): PhaseResult => ({ status: 'aborted', reason: error instanceof Error ? error.message : String(error), hint: 'See `debussy logs`.', exitKind: 'failed' }))
      .then((result) => {
        ended.push({ id: phase.id, result });
        running.delete(phase.id);
        wake();
      });
    running.set(phase.id, task);
  };

  const startReady = async (): Promise<void> => {
    for (const lost of unreachablePhases({ phases: toRun, started, givenUp })) {
      const why = `dependency ${lost.missing.join(', ')} did not complete`;
      started.add(lost.id);
      givenUp.add(lost.id);
      run.recorder.record({ type: 'phase_ended', phaseId: lost.id, status: 'skipped', reason: why });
      outcome.problems.push(`${lost.id} skipped (${why})`);
    }
    if (interrupt.aborted) return;
    const ready = readyPhases({ phases: toRun, merged: done, started, givenUp, running: running.size, maxParallel: input.maxParallel });
    // The phases that start together get their worktrees first, then one "in progress" commit.
    const starting: { phase: Phase; slot: Slot }[] = [];
    for (const id of ready) {
      const phase = byId.get(id);
      if (phase === undefined) continue;
      const state = await run.recorder.state();
      const mean = endedSpends.length === 0 ? undefined : endedSpends.reduce((a, b) => a + b, 0) / endedSpends.length;
      const busy = running.size + starting.length;
      const budget = decideStartBudget({ maxCostUsd: ctx.config.max_cost, maxPhaseCostUsd: ctx.config.max_phase_cost, spentUsd: runSpend(state).usd, running: busy, meanPhaseUsd: mean });
      // Reached: the phase starts anyway when it is alone, and its own check stops it at the budget with the run's usual words and exit code.
      if (budget.kind === 'wait' || (budget.kind === 'reached' && busy > 0)) break;
      const slot = await prepare(phase);
      if (slot !== undefined) starting.push({ phase, slot });
    }
    await markStatuses(starting.map(({ phase }) => phase.id), 'in_progress');
    for (const { phase, slot } of starting) launch(phase, slot);
  };

  const settle = async (id: string, result: PhaseResult): Promise<void> => {
    endedSpends.push((await run.recorder.state()).phases[id]?.costUsd ?? 0);
    const after = afterPhaseResult(id, result);
    if (after.kind === 'merge') {
      awaiting.push({ id, completedSeq: seq++ });
      if (!after.verifiedOnly) outcome.verifiedLast = id;
      return;
    }
    if (result.status !== 'interrupted' && result.status !== 'paused') await markStatus(id, result.status === 'aborted' ? 'failed' : result.status);
    if (after.kind === 'problem') {
      // Its dependents are skipped; a phase the run stopped in is resumed by the next run, and they with it.
      givenUp.add(id);
      outcome.problems.push(after.text);
    } else stop(after.stop);
  };

  const mergeNext = async (): Promise<void> => {
    const id = nextToMerge(awaiting, order);
    const slot = id === undefined ? undefined : slots.get(id);
    if (id === undefined || slot === undefined) return;
    awaiting.splice(awaiting.findIndex((entry) => entry.id === id), 1);
    // The Status cell rides in the merge commit (one commit, not two) when it can; else a commit of its own after it.
    let statusInMerge = false;
    const merged = await mergePhase(run, {
      ...slot, runBranch, mergedSoFar: mergedThisRun,
      phaseContext: () => phaseContextIn(run, slot.worktree, interrupt, done),
      beforeCommit: async () => {
        statusInMerge = await stagePlanStatusInMerge(run, id, 'completed');
      },
    });
    if (merged.kind === 'merged') {
      mergedThisRun.add(id);
      done.add(id);
      outcome.completedThisRun.push(id);
      if (!statusInMerge) await markStatus(id, 'completed');
      await removeWorktree(ctx.root, slot.worktree, slot.branch);
      return;
    }
    if (merged.kind === 'interrupted') {
      stop({ status: 'interrupted' });
      return;
    }
    givenUp.add(id);
    await markStatus(id, 'failed');
    run.recorder.record({ type: 'phase_ended', phaseId: id, status: 'failed', reason: merged.reason });
    stop({
      status: 'aborted', exitKind: 'failed',
      reason: `phase ${id}: ${merged.reason}; both branches are kept: ${slot.branch} (the phase, in ${slot.worktree}) and ${runBranch}. Merge it by hand (git merge ${slot.branch}), then run ${ctx.resumeCommand}`,
    });
  };

  for (;;) {
    await startReady();
    if (running.size === 0 && ended.length === 0 && (awaiting.length === 0 || interrupt.aborted)) break;
    if (ended.length === 0 && (awaiting.length === 0 || interrupt.aborted)) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = () => {};
    }
    for (const { id, result } of ended.splice(0)) await settle(id, result);
    // One merger: one completed phase at a time, while the others run on; between two merges the
    // phases the last one made ready start (they need only their own dependencies merged).
    if (awaiting.length > 0 && !interrupt.aborted) await mergeNext();
  }
  await Promise.all(running.values());
  return outcome;
}
