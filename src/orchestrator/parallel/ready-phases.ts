/**
 * Which phases may start now (--parallel): those whose dependencies are all merged into the run's
 * branch (or were complete before the run), not started yet, up to the free slots, in plan order.
 * And which can never start: a dependency ended without completing. Pure.
 */
export interface SchedulablePhase {
  id: string;
  dependsOn: readonly string[];
}

export interface ScheduleView {
  /** The run's phases to run, in execution order. */
  phases: readonly SchedulablePhase[];
  /** Complete and in the run's branch: what a dependent phase may start from. */
  merged: ReadonlySet<string>;
  /** Started in this run (running, ended, or waiting for their merge): never started twice. */
  started: ReadonlySet<string>;
  /** Ended without completing (failed, skipped, blocked, or a merge that failed). */
  givenUp: ReadonlySet<string>;
  running: number;
  maxParallel: number;
}

export function readyPhases(view: ScheduleView): string[] {
  const free = Math.max(0, view.maxParallel - view.running);
  return view.phases
    .filter((phase) => !view.started.has(phase.id) && phase.dependsOn.every((dep) => view.merged.has(dep)))
    .slice(0, free)
    .map((phase) => phase.id);
}

/** Phases not started whose dependency was given up (directly or through another such phase), with the dependencies that did not complete. */
export function unreachablePhases(view: Pick<ScheduleView, 'phases' | 'started' | 'givenUp'>): { id: string; missing: string[] }[] {
  const lost = new Set(view.givenUp);
  const out: { id: string; missing: string[] }[] = [];
  // Execution order: a phase's dependencies come before it, so one pass carries the loss down the graph.
  for (const phase of view.phases) {
    if (view.started.has(phase.id)) continue;
    const missing = phase.dependsOn.filter((dep) => lost.has(dep));
    if (missing.length === 0) continue;
    lost.add(phase.id);
    out.push({ id: phase.id, missing });
  }
  return out;
}
