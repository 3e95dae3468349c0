import type { Phase, Plan } from './types.js';

/**
 * Phases in the order to run them: a phase runs once everything it depends on has run, and
 * among the phases ready at any moment the one earliest in the table goes first. Phases that can
 * never become ready (in a cycle, depending on an unknown id, or on such a phase) follow at the
 * end in table order; the audit reports why.
 */
export function executionOrder(plan: Plan): Phase[] {
  const known = new Set(plan.phases.map((phase) => phase.id));
  const done = new Set<string>();
  const remaining = [...plan.phases];
  const order: Phase[] = [];
  for (;;) {
    const readyIndex = remaining.findIndex((phase) => phase.dependsOn.every((id) => known.has(id) && done.has(id)));
    const ready = remaining[readyIndex];
    if (ready === undefined) break;
    remaining.splice(readyIndex, 1);
    order.push(ready);
    done.add(ready.id);
  }
  return [...order, ...remaining];
}

/** Enough for any real plan; stops a pathological graph from enumerating forever. */
const MAX_CYCLES = 100;

/**
 * Every elementary dependency cycle, each as ids from the phase earliest in the table, following
 * "depends on" edges, with the first id repeated at the end: `["1", "2", "3", "1"]` means 1
 * depends on 2, 2 on 3 and 3 on 1. Each cycle is reported once.
 */
export function findCycles(plan: Plan): string[][] {
  const ids: string[] = [];
  const edges = new Map<string, string[]>();
  for (const phase of plan.phases) {
    // A duplicated id is one node: the audit reports the duplicate separately.
    if (!edges.has(phase.id)) ids.push(phase.id);
    edges.set(phase.id, [...new Set([...(edges.get(phase.id) ?? []), ...phase.dependsOn])]);
  }
  const rank = new Map(ids.map((id, index) => [id, index]));
  const cycles: string[][] = [];

  // Starting from each node in table order and visiting only later nodes finds each cycle
  // exactly once, rooted at its earliest member.
  ids.forEach((start, startRank) => {
    const path = [start];
    const onPath = new Set(path);
    const visit = (node: string): void => {
      for (const next of edges.get(node) ?? []) {
        if (cycles.length >= MAX_CYCLES) return;
        const nextRank = rank.get(next);
        if (nextRank === undefined || nextRank < startRank) continue;
        if (next === start) {
          cycles.push([...path, start]);
        } else if (!onPath.has(next)) {
          path.push(next);
          onPath.add(next);
          visit(next);
          path.pop();
          onPath.delete(next);
        }
      }
    };
    visit(start);
  });
  return cycles;
}
