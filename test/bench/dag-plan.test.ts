import { describe, expect, it } from 'vitest';
import { criticalPath, dagWidth, depths, layeredDag, peakOverlap, phaseDurations } from '../../bench/lib/dag-plan.js';

describe('layeredDag (the plan of bench figures 8 and 9)', () => {
  it('24 phases in 4 layers of 6: width 6, a critical path of 4 phases, one or two dependencies each in the layer before', () => {
    const plan = layeredDag(4, 6);
    expect(plan.map((p) => p.id)).toEqual(Array.from({ length: 24 }, (_, i) => String(i + 1)));
    expect(dagWidth(plan)).toBe(6);
    expect(Math.max(...depths(plan).values())).toBe(4);
    expect(criticalPath(plan, new Map(plan.map((p) => [p.id, 1]))).phases).toHaveLength(4);
    const layerOf = new Map(plan.map((p) => [p.id, p.layer]));
    for (const phase of plan) {
      if (phase.layer === 0) expect(phase.dependsOn, phase.id).toEqual([]);
      else expect([1, 2], phase.id).toContain(phase.dependsOn.length);
      for (const dep of phase.dependsOn) expect(layerOf.get(dep), `${phase.id} <- ${dep}`).toBe(phase.layer - 1);
    }
    // Every phase but the last layer's is needed by the next layer: no dead ends that shorten the path.
    const needed = new Set(plan.flatMap((p) => p.dependsOn));
    expect(plan.filter((p) => p.layer < 3 && !needed.has(p.id))).toEqual([]);
  });

  it.each([
    [1, 1, 1, 1],
    [1, 6, 6, 1],
    [3, 3, 3, 3],
    [6, 1, 1, 6],
  ])('%i layers of %i: width %i, depth %i', (layers, width, expectedWidth, expectedDepth) => {
    const plan = layeredDag(layers, width);
    expect(dagWidth(plan)).toBe(expectedWidth);
    expect(Math.max(...depths(plan).values())).toBe(expectedDepth);
  });

  it('refuses a layer count or width that is not a positive integer', () => {
    expect(() => layeredDag(0, 6)).toThrow(/positive integers/);
    expect(() => layeredDag(4, 1.5)).toThrow(/positive integers/);
  });
});

describe('criticalPath', () => {
  const diamond = [
    { id: 'a', dependsOn: [] },
    { id: 'b', dependsOn: ['a'] },
    { id: 'c', dependsOn: ['a'] },
    { id: 'd', dependsOn: ['b', 'c'] },
    { id: 'e', dependsOn: [] },
  ];

  it.each([
    ['the slower branch', { a: 1, b: 5, c: 2, d: 1, e: 3 }, 7, ['a', 'b', 'd']],
    ['the other branch when it is slower', { a: 1, b: 2, c: 5, d: 1, e: 3 }, 7, ['a', 'c', 'd']],
    ['a lone phase longer than any chain', { a: 1, b: 2, c: 2, d: 1, e: 9 }, 9, ['e']],
  ])('%s', (_name, times, ms, chain) => {
    const path = criticalPath(diamond, new Map(Object.entries(times)));
    expect(path).toEqual({ ms, phases: chain });
  });

  it('a phase without a duration is an error, not a shorter path', () => {
    expect(() => criticalPath(diamond, new Map([['a', 1]]))).toThrow(/no duration for phase b/);
  });

  it('a cycle is named', () => {
    expect(() => depths([{ id: 'x', dependsOn: ['y'] }, { id: 'y', dependsOn: ['x'] }])).toThrow(/cycle/);
  });
});

describe('phaseDurations', () => {
  it('from the first phase_started to the last phase_ended of each phase; phases without both are left out', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 0, 0, s)).toISOString();
    const events = [
      { type: 'run_started', ts: at(0) },
      { type: 'phase_started', ts: at(1), phaseId: '1' },
      { type: 'phase_started', ts: at(2), phaseId: '2' },
      { type: 'phase_ended', ts: at(4), phaseId: '1' },
      { type: 'phase_started', ts: at(5), phaseId: '1' }, // a resume: the phase's time runs from its first start
      { type: 'phase_ended', ts: at(7), phaseId: '1' },
      { type: 'phase_started', ts: at(8), phaseId: '3' },
    ];
    expect(Object.fromEntries(phaseDurations(events))).toEqual({ '1': 6000 });
  });
});

describe('peakOverlap', () => {
  it.each([
    ['none', [], 0],
    ['one after the other (touching ends do not overlap)', [[0, 5], [5, 9]], 1],
    ['three at once inside a longer one', [[0, 10], [1, 4], [2, 6], [3, 5]], 4],
  ] as [string, [number, number][], number][])('%s', (_name, spans, peak) => {
    expect(peakOverlap(spans)).toBe(peak);
  });
});
