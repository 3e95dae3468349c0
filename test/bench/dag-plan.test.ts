import { describe, expect, it } from 'vitest';
import { criticalPath, criticalPathOnSlots, dagWidth, depths, idleWhileWaiting, layeredDag, listSchedule, peakOverlap, phaseDurations } from '../../bench/lib/dag-plan.js';

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

describe('criticalPathOnSlots (figure 9: the least time on N slots)', () => {
  const diamond = [
    { id: 'a', dependsOn: [] },
    { id: 'b', dependsOn: ['a'] },
    { id: 'c', dependsOn: ['a'] },
    { id: 'd', dependsOn: ['b', 'c'] },
    { id: 'e', dependsOn: [] },
  ];
  const times = new Map(Object.entries({ a: 2, b: 5, c: 3, d: 1, e: 4 })); // chain a-b-d 8, work 15

  it.each([
    [1, 15, 'work'],
    [2, 8, 'chain'], // 7.5 of work per slot: the chain binds
    [3, 8, 'chain'],
    [10, 8, 'chain'],
  ] as const)('on %i slot(s): %i (%s)', (slots, ms, boundBy) => {
    const bound = criticalPathOnSlots(diamond, times, slots);
    expect({ ms: bound.ms, boundBy: bound.boundBy }).toEqual({ ms, boundBy });
    expect(bound.longestChain).toEqual({ ms: 8, phases: ['a', 'b', 'd'] });
    expect(bound.workPerSlotMs).toBe(15 / slots);
  });

  it('the plan of figure 9 at width 3 with equal phases is work-bound: 24 phases of 7 s take 56 s at least, the chain 28 s', () => {
    const plan = layeredDag(4, 6);
    const bound = criticalPathOnSlots(plan, new Map(plan.map((p) => [p.id, 7_000])), 3);
    expect(bound).toMatchObject({ ms: 56_000, boundBy: 'work', longestChain: { ms: 28_000 } });
  });

  it('refuses a slot count that is not a positive integer, and a phase without a duration', () => {
    expect(() => criticalPathOnSlots(diamond, times, 0)).toThrow(/positive integer/);
    expect(() => criticalPathOnSlots(diamond, new Map([['a', 1]]), 2)).toThrow(/no duration for phase b/);
  });
});

describe('listSchedule (a makespan a greedy schedule reaches)', () => {
  it.each([
    ['a chain, whatever the slots', [['a', []], ['b', ['a']], ['c', ['b']]], { a: 1, b: 2, c: 3 }, 3, 6, { a: 0, b: 1, c: 3 }],
    ['independent phases on 2 slots, in plan order', [['a', []], ['b', []], ['c', []]], { a: 4, b: 1, c: 2 }, 2, 4, { a: 0, b: 0, c: 1 }],
    ['a slot waits for a dependency to end', [['a', []], ['b', ['a']], ['c', []]], { a: 3, b: 1, c: 1 }, 2, 4, { a: 0, c: 0, b: 3 }],
    // Plan order puts the long phase last: greedy takes 7 where the best is 5 (c first, then a and b beside it).
    ['greedy is not always the best: above the bound', [['a', []], ['b', []], ['c', []]], { a: 2, b: 3, c: 5 }, 2, 7, { a: 0, b: 0, c: 2 }],
  ] as [string, [string, string[]][], Record<string, number>, number, number, Record<string, number>][])('%s', (_name, shape, times, slots, ms, starts) => {
    const phases = shape.map(([id, dependsOn]) => ({ id, dependsOn }));
    const durations = new Map(Object.entries(times));
    const schedule = listSchedule(phases, durations, slots);
    expect(schedule.ms).toBe(ms);
    expect(Object.fromEntries(schedule.startMs)).toEqual(starts);
    expect(schedule.ms).toBeGreaterThanOrEqual(criticalPathOnSlots(phases, durations, slots).ms);
  });

  it('the plan of figure 9 with equal phases on 3 slots reaches the bound: 8 rounds', () => {
    const plan = layeredDag(4, 6);
    expect(listSchedule(plan, new Map(plan.map((p) => [p.id, 7_000])), 3).ms).toBe(56_000);
  });

  it('names a missing duration and an unknown dependency', () => {
    expect(() => listSchedule([{ id: 'a', dependsOn: [] }], new Map(), 1)).toThrow(/no duration for phase a/);
    expect(() => listSchedule([{ id: 'a', dependsOn: ['z'] }], new Map([['a', 1]]), 1)).toThrow(/unknown phase z/);
  });
});

describe('idleWhileWaiting (slot time lost while work waited)', () => {
  it.each([
    ['nothing waits', 2, [[0, 10]], [], 0],
    ['all slots busy while one waits', 1, [[0, 10]], [[2, 10]], 0],
    ['one slot free for 3 while one waits', 2, [[0, 10]], [[2, 5]], 3],
    ['two wait, one slot free: one slot counts', 2, [[0, 10]], [[0, 4], [0, 4]], 4],
    ['two wait, both slots free, then one is taken', 2, [[3, 9]], [[0, 3], [0, 6]], 3 * 2 + 3 * 1],
    ['a slot freed as the wait ends counts nothing', 1, [[0, 5], [5, 8]], [[1, 5]], 0],
  ] as [string, number, [number, number][], [number, number][], number][])('%s', (_name, slots, busy, waiting, idle) => {
    expect(idleWhileWaiting(slots, busy, waiting)).toBe(idle);
  });
});
