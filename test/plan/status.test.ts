import { describe, expect, it } from 'vitest';
import { normaliseStatus, type PhaseStatus } from '../../src/plan/index.js';

describe('normaliseStatus', () => {
  const cases: [string, PhaseStatus | undefined][] = [
    ['pending', 'pending'],
    ['Pending', 'pending'],
    ['⏳ Pending', 'pending'],
    ['in progress', 'in_progress'],
    ['In Progress', 'in_progress'],
    ['in_progress', 'in_progress'],
    ['IN-PROGRESS', 'in_progress'],
    ['🔄 In  Progress', 'in_progress'],
    ['running', 'in_progress'],
    ['complete', 'completed'],
    ['Completed', 'completed'],
    ['✅ Complete', 'completed'],
    ['✅Done', 'completed'],
    ['Complete ✅', 'completed'],
    ['**Done**', 'completed'],
    ['failed', 'failed'],
    ['❌ Failed', 'failed'],
    ['Blocked', 'blocked'],
    ['skipped', 'skipped'],
    ['Someday', undefined],
    ['done-ish', undefined],
    ['', undefined],
    ['✅', undefined],
  ];

  it.each(cases)('%j -> %s', (text, expected) => {
    expect(normaliseStatus(text)).toBe(expected);
  });
});
