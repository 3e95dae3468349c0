import { describe, expect, it } from 'vitest';
import { budgetRaised, checkBudget, describeBudgetReached, sessionBudgetFlag } from '../../src/cost/budget.js';

describe('checkBudget', () => {
  it.each([
    ['no budget', { maxCost: undefined, maxPhaseCost: undefined }, { runUsd: 5, phaseUsd: 5 }, 0, { kind: 'within', remainingUsd: undefined }],
    ['run budget left', { maxCost: 0.5, maxPhaseCost: undefined }, { runUsd: 0.4, phaseUsd: 0.4 }, 0, { kind: 'within', remainingUsd: 0.1 }],
    ['the running session reaches the run budget', { maxCost: 0.5, maxPhaseCost: undefined }, { runUsd: 0.4, phaseUsd: 0.4 }, 0.1, { kind: 'reached', scope: 'run', limitUsd: 0.5, spentUsd: 0.5 }],
    ['the phase budget is tighter', { maxCost: 5, maxPhaseCost: 1 }, { runUsd: 2, phaseUsd: 0.25 }, 0, { kind: 'within', remainingUsd: 0.75 }],
    ['the phase budget reached first', { maxCost: 5, maxPhaseCost: 1 }, { runUsd: 2, phaseUsd: 0.8 }, 0.3, { kind: 'reached', scope: 'phase', limitUsd: 1, spentUsd: 1.1 }],
    ['spent before the session started', { maxCost: 0.5, maxPhaseCost: undefined }, { runUsd: 0.6, phaseUsd: 0 }, 0, { kind: 'reached', scope: 'run', limitUsd: 0.5, spentUsd: 0.6 }],
  ] as const)('%s', (_name, limits, spent, running, expected) => {
    const check = checkBudget(limits, spent, running, 0);
    expect(check.kind).toBe(expected.kind);
    if (check.kind === 'within' && expected.kind === 'within') {
      if (expected.remainingUsd === undefined) expect(check.remainingUsd).toBeUndefined();
      else expect(check.remainingUsd).toBeCloseTo(expected.remainingUsd, 9);
    }
    if (check.kind === 'reached' && expected.kind === 'reached') {
      expect(check.scope).toBe(expected.scope);
      expect(check.limitUsd).toBe(expected.limitUsd);
      expect(check.spentUsd).toBeCloseTo(expected.spentUsd, 9);
    }
  });
});

describe('checkBudget with the next turn', () => {
  it.each([
    ['the next turn like the last would cross: reached, the spend is still under', 0.4, 0.05, 0.05, { kind: 'reached', spentUsd: 0.45, nextTurnUsd: 0.05 }],
    ['the next turn fits', 0.4, 0.05, 0.04, { kind: 'within' }],
    ['no turn seen yet', 0.4, 0, 0, { kind: 'within' }],
  ] as const)('%s', (_name, runUsd, running, next, expected) => {
    const check = checkBudget({ maxCost: 0.5, maxPhaseCost: undefined }, { runUsd, phaseUsd: 0 }, running, next);
    expect(check.kind).toBe(expected.kind);
    if (check.kind === 'reached' && expected.kind === 'reached') {
      expect(check.spentUsd).toBeCloseTo(expected.spentUsd, 9);
      expect(check.nextTurnUsd).toBe(expected.nextTurnUsd);
    }
  });
});

describe('sessionBudgetFlag', () => {
  it.each([
    [{ kind: 'within', remainingUsd: 0.123456 } as const, '0.1234'],
    [{ kind: 'within', remainingUsd: undefined } as const, undefined],
    [{ kind: 'reached', scope: 'run', limitUsd: 1, spentUsd: 1, nextTurnUsd: 0 } as const, undefined],
  ])('%o -> %s', (check, flag) => {
    expect(sessionBudgetFlag(check)).toBe(flag);
  });
});

describe('describeBudgetReached', () => {
  it('says what was spent, against which key, and the command that raises it', () => {
    const text = describeBudgetReached({ kind: 'reached', scope: 'run', limitUsd: 0.5, spentUsd: 0.52, nextTurnUsd: 0 }, 'debussy run plans/x/MASTER_PLAN.md');
    expect(text.reason).toBe('run budget reached: spent $0.52 of max_cost $0.50');
    expect(text.hint).toContain('debussy run plans/x/MASTER_PLAN.md --max-cost 1.52');
    const phase = describeBudgetReached({ kind: 'reached', scope: 'phase', limitUsd: 20, spentUsd: 20.1, nextTurnUsd: 0 }, 'debussy run p.md');
    expect(phase.reason).toBe('phase budget reached: spent $20.10 of max_phase_cost $20.00');
    expect(phase.hint).toContain('--max-phase-cost 40');
    const ahead = describeBudgetReached({ kind: 'reached', scope: 'run', limitUsd: 0.5, spentUsd: 0.45, nextTurnUsd: 0.05 }, 'debussy run p.md');
    expect(ahead.reason).toBe('run budget reached: spent $0.45 of max_cost $0.50 (the next turn, about $0.05, would cross it)');
  });
});

describe('budgetRaised', () => {
  it.each([
    ['same max_cost', { maxCostUsd: 0.5 }, { maxCost: 0.5, maxPhaseCost: undefined }, false],
    ['lower max_cost', { maxCostUsd: 0.5 }, { maxCost: 0.4, maxPhaseCost: undefined }, false],
    ['higher max_cost', { maxCostUsd: 0.5 }, { maxCost: 1.5, maxPhaseCost: undefined }, true],
    ['max_cost removed', { maxCostUsd: 0.5 }, { maxCost: undefined, maxPhaseCost: undefined }, true],
    ['higher max_phase_cost', { maxCostUsd: 5, maxPhaseCostUsd: 1 }, { maxCost: 5, maxPhaseCost: 2 }, true],
    ['no budget before', undefined, { maxCost: 1, maxPhaseCost: undefined }, false],
  ] as const)('%s -> %s', (_name, before, now, raised) => {
    expect(budgetRaised(before, now)).toBe(raised);
  });
});
