/**
 * The plan of figures 8 and 9: a layered dependency graph of phases, and the measures a makespan
 * is held against. Pure: the figures turn the graph into plan files and scripted sessions, and
 * feed the journal's per-phase times to `criticalPath`.
 */
export interface DagPhase {
  id: string;
  /** 0-based layer: its dependencies are all in the layer before. */
  layer: number;
  dependsOn: string[];
}

/**
 * `layers` layers of `width` phases, ids 1..layers*width in layer order. Phase j of a layer
 * depends on phase j of the layer before and, for odd j, also on phase j+1 (mod width): one or
 * two dependencies each, and every phase of a layer needed by the next.
 */
export function layeredDag(layers: number, width: number): DagPhase[] {
  if (!Number.isInteger(layers) || !Number.isInteger(width) || layers < 1 || width < 1) throw new Error(`layeredDag: layers and width must be positive integers, got ${layers} x ${width}`);
  const id = (layer: number, j: number) => String(layer * width + j + 1);
  const phases: DagPhase[] = [];
  for (let layer = 0; layer < layers; layer++) {
    for (let j = 0; j < width; j++) {
      const deps = layer === 0 ? [] : [id(layer - 1, j), ...(j % 2 === 1 && width > 1 ? [id(layer - 1, (j + 1) % width)] : [])];
      phases.push({ id: id(layer, j), layer, dependsOn: [...new Set(deps)] });
    }
  }
  return phases;
}

/** Each phase's depth: 1 for a phase with no dependencies, else one more than its deepest dependency. */
export function depths(phases: readonly Pick<DagPhase, 'id' | 'dependsOn'>[]): Map<string, number> {
  const byId = new Map(phases.map((p) => [p.id, p]));
  const depth = new Map<string, number>();
  const visit = (id: string, path: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const phase = byId.get(id);
    if (phase === undefined) throw new Error(`depths: unknown phase ${id}`);
    if (path.has(id)) throw new Error(`depths: a cycle through phase ${id}`);
    path.add(id);
    const d = 1 + Math.max(0, ...phase.dependsOn.map((dep) => visit(dep, path)));
    path.delete(id);
    depth.set(id, d);
    return d;
  };
  for (const phase of phases) visit(phase.id, new Set());
  return depth;
}

/**
 * The most phases at one depth: how many can run at once when every phase takes as long (what
 * `--parallel N` needs to run the plan in depth-many rounds).
 */
export function dagWidth(phases: readonly Pick<DagPhase, 'id' | 'dependsOn'>[]): number {
  const counts = new Map<number, number>();
  for (const d of depths(phases).values()) counts.set(d, (counts.get(d) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

export interface CriticalPath {
  /** The sum of the durations along the chain. */
  ms: number;
  /** The chain, first phase first. */
  phases: string[];
}

/**
 * The longest dependency chain, each phase weighted by its duration: no schedule, on any number
 * of slots, can end the plan sooner. A phase missing from `durationMs` is an error (a phase that
 * did not run says nothing about the path).
 */
export function criticalPath(phases: readonly Pick<DagPhase, 'id' | 'dependsOn'>[], durationMs: ReadonlyMap<string, number>): CriticalPath {
  const byId = new Map(phases.map((p) => [p.id, p]));
  const best = new Map<string, CriticalPath>();
  const visit = (id: string): CriticalPath => {
    const known = best.get(id);
    if (known !== undefined) return known;
    const phase = byId.get(id);
    const own = durationMs.get(id);
    if (phase === undefined || own === undefined) throw new Error(`criticalPath: no duration for phase ${id}`);
    const before = phase.dependsOn.map(visit).reduce<CriticalPath>((a, b) => (b.ms > a.ms ? b : a), { ms: 0, phases: [] });
    const path = { ms: before.ms + own, phases: [...before.phases, id] };
    best.set(id, path);
    return path;
  };
  return phases.map((p) => visit(p.id)).reduce<CriticalPath>((a, b) => (b.ms > a.ms ? b : a), { ms: 0, phases: [] });
}

/** A journal line as far as per-phase times go. */
export interface TimedEvent {
  type: string;
  ts: string;
  phaseId?: string;
}

/**
 * Each phase's time from its first phase_started to its last phase_ended in a run's journal: its
 * sessions and gates (and, under --parallel, nothing of its worktree or merge, which come before
 * and after). Phases without both events are left out.
 */
export function phaseDurations(events: readonly TimedEvent[]): Map<string, number> {
  const started = new Map<string, number>();
  const ended = new Map<string, number>();
  for (const event of events) {
    if (event.phaseId === undefined) continue;
    const at = Date.parse(event.ts);
    if (event.type === 'phase_started' && !started.has(event.phaseId)) started.set(event.phaseId, at);
    if (event.type === 'phase_ended') ended.set(event.phaseId, at);
  }
  const out = new Map<string, number>();
  for (const [id, start] of started) {
    const end = ended.get(id);
    if (end !== undefined) out.set(id, end - start);
  }
  return out;
}

/** The most phases running at the same moment, from each phase's [start, end] (ms). */
export function peakOverlap(spans: readonly (readonly [number, number])[]): number {
  // Ends sort before starts at the same instant: a phase that starts as another ends does not overlap it.
  const edges = spans.flatMap(([start, end]) => [[start, 1], [end, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, step] of edges) {
    now += step;
    peak = Math.max(peak, now);
  }
  return peak;
}

/**
 * Figure 9's "critical path at width `slots`": the least time any schedule of the plan on that
 * many slots can take, given each phase's duration. No schedule ends before its longest dependency
 * chain ends, nor before `slots` slots have done all the work (sum / slots), so the larger of the
 * two is a lower bound of the best makespan; `listSchedule` gives a makespan a schedule reaches,
 * so the best one lies between the two.
 */
export interface SlotBound {
  ms: number;
  longestChain: CriticalPath;
  /** All the phases' time over the slots. */
  workPerSlotMs: number;
  /** Which of the two bounds the figure is. */
  boundBy: 'chain' | 'work';
}

export function criticalPathOnSlots(phases: readonly Pick<DagPhase, 'id' | 'dependsOn'>[], durationMs: ReadonlyMap<string, number>, slots: number): SlotBound {
  if (!Number.isInteger(slots) || slots < 1) throw new Error(`criticalPathOnSlots: slots must be a positive integer, got ${slots}`);
  const longestChain = criticalPath(phases, durationMs);
  const workPerSlotMs = phases.reduce((sum, p) => sum + (durationMs.get(p.id) ?? 0), 0) / slots;
  return workPerSlotMs > longestChain.ms
    ? { ms: workPerSlotMs, longestChain, workPerSlotMs, boundBy: 'work' }
    : { ms: longestChain.ms, longestChain, workPerSlotMs, boundBy: 'chain' };
}

export interface ListSchedule {
  ms: number;
  /** Each phase's start (ms from 0). */
  startMs: Map<string, number>;
}

/**
 * A greedy schedule on `slots` slots with nothing paid between phases: whenever a slot is free, it
 * takes the first phase in plan order whose dependencies have ended (the queue's workers take the
 * job added first, and debussy adds ready phases in plan order). A makespan some schedule reaches:
 * the best one is no longer.
 */
export function listSchedule(phases: readonly Pick<DagPhase, 'id' | 'dependsOn'>[], durationMs: ReadonlyMap<string, number>, slots: number): ListSchedule {
  if (!Number.isInteger(slots) || slots < 1) throw new Error(`listSchedule: slots must be a positive integer, got ${slots}`);
  depths(phases); // unknown dependencies and cycles are named before anything is scheduled
  const own = (id: string) => {
    const ms = durationMs.get(id);
    if (ms === undefined) throw new Error(`listSchedule: no duration for phase ${id}`);
    return ms;
  };
  const endMs = new Map<string, number>();
  const startMs = new Map<string, number>();
  const slotFreeAt = Array.from({ length: slots }, () => 0);
  while (startMs.size < phases.length) {
    const now = Math.min(...slotFreeAt);
    const slot = slotFreeAt.indexOf(now);
    const endedBy = (id: string, t: number) => (endMs.get(id) ?? Number.POSITIVE_INFINITY) <= t;
    const ready = phases.find((p) => !startMs.has(p.id) && p.dependsOn.every((d) => endedBy(d, now)));
    if (ready === undefined) {
      // Nothing ready now: this slot waits for the next phase to end (one must be running, or a dependency is missing).
      const later = [...endMs.values()].filter((t) => t > now);
      if (later.length === 0) throw new Error('listSchedule: phases left whose dependencies never end');
      slotFreeAt[slot] = Math.min(...later);
      continue;
    }
    startMs.set(ready.id, now);
    endMs.set(ready.id, now + own(ready.id));
    slotFreeAt[slot] = now + own(ready.id);
  }
  return { ms: Math.max(0, ...endMs.values()), startMs };
}

/**
 * Slot time left idle while work waited: over time, min(phases waiting, slots not busy), summed
 * (ms). `busy` are the spans the slots were taken, `waiting` the spans phases waited for a slot.
 */
export function idleWhileWaiting(slots: number, busy: readonly (readonly [number, number])[], waiting: readonly (readonly [number, number])[]): number {
  const edges = [
    ...busy.flatMap(([start, end]) => [[start, 1, 0], [end, -1, 0]] as const),
    ...waiting.flatMap(([start, end]) => [[start, 0, 1], [end, 0, -1]] as const),
  ].sort((a, b) => a[0] - b[0]);
  let taken = 0;
  let waiters = 0;
  let idle = 0;
  let last = edges[0]?.[0] ?? 0;
  for (const [at, busyStep, waitStep] of edges) {
    idle += (at - last) * Math.min(waiters, Math.max(0, slots - taken));
    last = at;
    taken += busyStep;
    waiters += waitStep;
  }
  return idle;
}
