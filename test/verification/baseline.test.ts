/** Inherited or introduced: a gate failure against the phase's baseline, and whether it blocks. */
import { describe, expect, it } from 'vitest';
import { blockingFailures, failedBefore, splitByBaseline, type GateVerdict } from '../../src/verification/baseline.js';

const gate = (name: string, command = `run ${name}`) => ({ name, command });
const verdict = (name: string, passed: boolean, command = `run ${name}`): GateVerdict => ({ name, command, passed });

describe('splitByBaseline', () => {
  const cases: { name: string; failed: string[]; baseline: GateVerdict[] | undefined; inherited: string[]; introduced: string[] }[] = [
    { name: 'no baseline: every failure is introduced', failed: ['a', 'b'], baseline: undefined, inherited: [], introduced: ['a', 'b'] },
    { name: 'failed before and now: inherited', failed: ['a'], baseline: [verdict('a', false)], inherited: ['a'], introduced: [] },
    { name: 'passed before, fails now: introduced', failed: ['a'], baseline: [verdict('a', true)], inherited: [], introduced: ['a'] },
    { name: 'not in the baseline (a gate added since): introduced', failed: ['b'], baseline: [verdict('a', false)], inherited: [], introduced: ['b'] },
    { name: 'same name, other command: introduced', failed: ['a'], baseline: [verdict('a', false, 'old command')], inherited: [], introduced: ['a'] },
    { name: 'a mix keeps the plan order within each', failed: ['a', 'b', 'c'], baseline: [verdict('a', false), verdict('b', true), verdict('c', false)], inherited: ['a', 'c'], introduced: ['b'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const split = splitByBaseline(c.failed.map((name) => gate(name)), c.baseline);
      expect(split.inherited.map((g) => g.name)).toEqual(c.inherited);
      expect(split.introduced.map((g) => g.name)).toEqual(c.introduced);
    });
  }
});

describe('blockingFailures', () => {
  const split = { introduced: [gate('new')], inherited: [gate('old')] };
  it('block: inherited failures block too', () => {
    expect(blockingFailures(split, 'block')).toEqual({ blocking: [gate('new'), gate('old')], tolerated: [] });
  });
  it('warn: only introduced failures block; inherited ones are tolerated', () => {
    expect(blockingFailures(split, 'warn')).toEqual({ blocking: [gate('new')], tolerated: [gate('old')] });
  });
  it('warn with only inherited failures: nothing blocks', () => {
    expect(blockingFailures({ introduced: [], inherited: [gate('old')] }, 'warn').blocking).toEqual([]);
  });
});

describe('failedBefore', () => {
  it('is true only for a gate that failed in the baseline', () => {
    expect(failedBefore(gate('a'), [verdict('a', false)])).toBe(true);
    expect(failedBefore(gate('a'), [verdict('a', true)])).toBe(false);
    expect(failedBefore(gate('a'), undefined)).toBe(false);
  });
});
