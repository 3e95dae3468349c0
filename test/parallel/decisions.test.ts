/** The --parallel scheduler's decisions, each a pure function (src/orchestrator/parallel/), table-tested. */
import { describe, expect, it } from 'vitest';
import { readyPhases, unreachablePhases, type SchedulablePhase } from '../../src/orchestrator/parallel/ready-phases.js';
import { decideMerge, nextToMerge } from '../../src/orchestrator/parallel/merge-order.js';
import { decideStartBudget } from '../../src/orchestrator/parallel/start-budget.js';
import { afterPhaseResult, firstStop } from '../../src/orchestrator/parallel/phase-result.js';
import { movePath, phaseBranchName } from '../../src/orchestrator/parallel/phase-worktree.js';
import { priorUsedWorktrees, unmergedPhases } from '../../src/orchestrator/parallel/prior-worktrees.js';
import type { PhaseState, RunState } from '../../src/state/index.js';

// 1 and 2 independent, 3 needs both, 4 needs 3, 5 independent.
const PHASES: SchedulablePhase[] = [
  { id: '1', dependsOn: [] }, { id: '2', dependsOn: [] }, { id: '3', dependsOn: ['1', '2'] }, { id: '4', dependsOn: ['3'] }, { id: '5', dependsOn: [] },
];
const set = (...ids: string[]) => new Set(ids);

describe('readyPhases', () => {
  it.each([
    ['nothing run yet, two slots: the first two independent ones', set(), set(), 0, 2, ['1', '2']],
    ['three slots: every independent phase', set(), set(), 0, 3, ['1', '2', '5']],
    ['one slot: one at a time, in plan order', set(), set(), 0, 1, ['1']],
    ['slots full: none', set(), set('1', '2'), 2, 2, []],
    ['1 merged, 2 still running: 3 waits, 5 takes the free slot', set('1'), set('1', '2'), 1, 2, ['5']],
    ['1 and 2 merged: 3 starts', set('1', '2'), set('1', '2', '5'), 1, 2, ['3']],
    ['complete before the run counts as merged', set('1', '2', '3'), set('1', '2', '3'), 0, 4, ['4', '5']],
  ])('%s', (_why, merged, started, running, maxParallel, expected) => {
    expect(readyPhases({ phases: PHASES, merged, started, givenUp: set(), running, maxParallel })).toEqual(expected);
  });
});

describe('unreachablePhases', () => {
  it.each([
    ['nothing given up', set(), set(), []],
    ['2 failed: 3 and, through it, 4', set('1', '2'), set('2'), [{ id: '3', missing: ['2'] }, { id: '4', missing: ['3'] }]],
    ['a phase already started is not skipped', set('1', '2', '3'), set('2'), []],
  ])('%s', (_why, started, givenUp, expected) => {
    expect(unreachablePhases({ phases: PHASES, started, givenUp })).toEqual(expected);
  });
});

describe('nextToMerge', () => {
  it.each([
    ['none waiting', [], undefined],
    ['the first to complete', [{ id: '2', completedSeq: 4 }, { id: '5', completedSeq: 3 }], '5'],
    ['a tie goes in plan order', [{ id: '5', completedSeq: 1 }, { id: '2', completedSeq: 1 }], '2'],
  ])('%s', (_why, awaiting, expected) => {
    expect(nextToMerge(awaiting, ['1', '2', '3', '4', '5'])).toBe(expected);
  });
});

describe('decideMerge', () => {
  it.each([
    ['clean: commit', { kind: 'clean' as const }, false, 'commit'],
    ['a conflict: one remediation', { kind: 'conflict' as const, files: ['a.txt'] }, false, 'remediate'],
    ['a broken gate: one remediation', { kind: 'gates_broken' as const, gates: ['tests (phase 1)'] }, false, 'remediate'],
    ['a conflict again after the remediation: stop', { kind: 'conflict' as const, files: ['a.txt'] }, true, 'stop'],
    ['clean after the remediation: commit', { kind: 'clean' as const }, true, 'commit'],
  ])('%s', (_why, check, remediated, expected) => {
    expect(decideMerge('2', check, remediated).kind).toBe(expected);
  });

  it('names the conflict and the files', () => {
    expect(decideMerge('2', { kind: 'conflict', files: ['a.txt', 'b.txt'] }, true)).toEqual({ kind: 'stop', reason: 'merging phase 2 conflicts in a.txt, b.txt, again after a merge remediation' });
  });
});

describe('decideStartBudget', () => {
  it.each([
    ['no budget: start', { maxCostUsd: undefined, maxPhaseCostUsd: undefined, spentUsd: 100, running: 5, meanPhaseUsd: 10 }, 'start'],
    ['reached: never start', { maxCostUsd: 1, maxPhaseCostUsd: undefined, spentUsd: 1, running: 0, meanPhaseUsd: undefined }, 'reached'],
    ['alone below the budget: start (its own checks stop it)', { maxCostUsd: 1, maxPhaseCostUsd: 5, spentUsd: 0.9, running: 0, meanPhaseUsd: undefined }, 'start'],
    ['the running ones and this one fit under max_phase_cost each: start', { maxCostUsd: 10, maxPhaseCostUsd: 3, spentUsd: 1, running: 2, meanPhaseUsd: undefined }, 'start'],
    ['they would not: wait for the running ones', { maxCostUsd: 10, maxPhaseCostUsd: 3, spentUsd: 2, running: 2, meanPhaseUsd: undefined }, 'wait'],
    ['no max_phase_cost: the mean of the ended phases', { maxCostUsd: 10, maxPhaseCostUsd: undefined, spentUsd: 4, running: 1, meanPhaseUsd: 4 }, 'wait'],
    ['nothing known yet: start', { maxCostUsd: 10, maxPhaseCostUsd: undefined, spentUsd: 4, running: 1, meanPhaseUsd: undefined }, 'start'],
  ])('%s', (_why, input, expected) => {
    expect(decideStartBudget(input).kind).toBe(expected);
  });
});

describe('afterPhaseResult', () => {
  it.each([
    [{ status: 'completed' as const }, 'merge'],
    [{ status: 'failed' as const, reason: 'gates', hint: '' }, 'problem'],
    [{ status: 'skipped' as const, reason: 'breaker' }, 'problem'],
    [{ status: 'interrupted' as const }, 'stop'],
    [{ status: 'blocked' as const, reason: 'needs a key' }, 'stop'],
    [{ status: 'paused' as const, reason: 'budget', hint: '', exitKind: 'budget' as const }, 'stop'],
    [{ status: 'aborted' as const, reason: 'key rejected', hint: '', exitKind: 'permissions' as const }, 'stop'],
  ])('%o -> %s', (result, expected) => {
    expect(afterPhaseResult('1', result).kind).toBe(expected);
  });

  it('a stop with a reason is not hidden by a plain interrupt of the others', () => {
    const blocked = { status: 'blocked' as const, reason: 'phase 2 is blocked: x' };
    expect(firstStop({ status: 'interrupted' }, blocked)).toEqual(blocked);
    expect(firstStop(blocked, { status: 'interrupted' })).toEqual(blocked);
  });
});

describe('phase worktrees', () => {
  it.each([
    ['1', 'debussy/r1/1'],
    ['auth setup/2', 'debussy/r1/auth-setup-2'],
    ['..x', 'debussy/r1/x'],
  ])('branch of phase %s: %s', (id, expected) => {
    expect(phaseBranchName('r1', id)).toBe(expected);
  });

  it.each([
    ['/repo/plans/MASTER_PLAN.md', '/wt/plans/MASTER_PLAN.md'],
    ['/elsewhere/plan.md', '/elsewhere/plan.md'],
  ])('%s seen from the worktree: %s', (file, expected) => {
    expect(movePath(file, '/repo', '/wt')).toBe(expected);
  });
});

describe('what an earlier run left in worktrees', () => {
  const phase = (id: string, status: PhaseState['status'], branch?: PhaseState['branch']) => ({ id, status, ...(branch === undefined ? {} : { branch }) }) as PhaseState;
  const prior = (...phases: PhaseState[]) => ({ phases: Object.fromEntries(phases.map((p) => [p.id, p])) }) as unknown as RunState;
  const tree = (merged: boolean) => ({ name: 'debussy/r/x', worktree: '/wt/x', merged });
  it.each([
    ['no earlier run', undefined, [], false],
    ['a sequential run', prior(phase('1', 'in_progress')), [], false],
    ['a phase interrupted in its worktree', prior(phase('1', 'in_progress', tree(false))), [], true],
    ['a phase completed, not merged (debussy stopped first)', prior(phase('1', 'completed', tree(false))), ['1'], true],
    ['every phase merged', prior(phase('1', 'completed', tree(true))), [], false],
  ])('%s', (_why, state, unmerged, used) => {
    expect(unmergedPhases(state).map((p) => p.id)).toEqual(unmerged);
    expect(priorUsedWorktrees(state)).toBe(used);
  });
});
