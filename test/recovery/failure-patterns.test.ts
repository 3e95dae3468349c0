import { describe, expect, it } from 'vitest';
import { FAILURE_CLASS_NAMES, findRecurringPatterns, likelyRootCause, mainRecurringPattern, type FailureRecord } from '../../src/recovery/index.js';

const at = (minute: number): number => Date.UTC(2026, 0, 1, 12, minute);

describe('recurring failure patterns', () => {
  it('reports a class seen three or more times, with a root cause', () => {
    const failures: FailureRecord[] = [
      { class: 'network', message: 'ECONNRESET', at: at(1), phaseId: '1', correlationKey: 'network:none:econnreset' },
      { class: 'rate_limit', message: '429', at: at(2), phaseId: '1' },
      { class: 'network', message: 'fetch failed', at: at(3), phaseId: '2', correlationKey: 'network:none:fetch_failed' },
      { class: 'network', message: 'ECONNRESET', at: at(5), phaseId: '2', correlationKey: 'network:none:econnreset' },
      { class: 'rate_limit', message: '429', at: at(6), phaseId: '3' },
    ];
    expect(findRecurringPatterns(failures)).toEqual([
      {
        class: 'network',
        count: 3,
        likelyRootCause: likelyRootCause('network'),
        firstAt: at(1),
        lastAt: at(5),
        phaseIds: ['1', '2'],
        commonKey: 'network:none:econnreset',
      },
    ]);
  });

  it('two of a class is not a pattern', () => {
    expect(findRecurringPatterns([{ class: 'stall', message: '', at: 1 }, { class: 'stall', message: '', at: 2 }])).toEqual([]);
    expect(mainRecurringPattern([])).toBeUndefined();
  });

  it('orders patterns by count, then most recent', () => {
    const many = (cls: FailureRecord['class'], n: number, start: number): FailureRecord[] => Array.from({ length: n }, (_, i) => ({ class: cls, message: '', at: start + i }));
    const patterns = findRecurringPatterns([...many('agent_crash', 4, 0), ...many('overloaded', 3, 100), ...many('stall', 3, 10)]);
    expect(patterns.map((p) => p.class)).toEqual(['agent_crash', 'overloaded', 'stall']);
    expect(mainRecurringPattern(many('overloaded', 5, 0))?.likelyRootCause).toMatch(/overloaded/);
  });

  it('has a distinct root-cause sentence for every class', () => {
    const causes = FAILURE_CLASS_NAMES.map(likelyRootCause);
    expect(new Set(causes).size).toBe(FAILURE_CLASS_NAMES.length);
    for (const cause of causes) expect(cause).toMatch(/^[A-Z].*\.$/);
  });
});
