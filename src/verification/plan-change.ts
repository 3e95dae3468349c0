/**
 * What a run does about a plan that changed since the run before it (plan-diff.ts): a completed
 * phase whose phase file or gates changed is verified again before it counts as done, unless the
 * user trusts it (`--trust-completed`); a renumbered phase keeps its completion; a removed phase is
 * only named (its record stays in the earlier journal, nothing runs it). Pure.
 */
import { describePlanChange, type PlanChange } from '../plan/plan-diff.js';

export interface PlanChangeInput {
  changes: readonly PlanChange[];
  /** Phases taken as done (id -> why), as resume-plan.ts found them. */
  completed: ReadonlyMap<string, string>;
  trustCompleted: boolean;
}

export interface PlanChangeDecision {
  /** Completed phases whose gates run again before they count as done: id -> why. */
  reverify: Map<string, string>;
  /** Completed phases whose file or gates changed, kept as done because of --trust-completed. */
  kept: string[];
  /** Phases taken as done because they were completed under another id: new id -> why. */
  renumberedDone: Map<string, string>;
}

/** The phase ids whose completion a change puts in doubt, with why: the file or the gates that define "done" moved. */
function doubted(changes: readonly PlanChange[]): Map<string, string> {
  const doubts = new Map<string, string>();
  for (const change of changes) {
    if (change.kind === 'gates_changed') doubts.set(change.id, 'its gates changed');
    else if (change.kind === 'file_changed' && !doubts.has(change.id)) doubts.set(change.id, 'its phase file changed');
  }
  return doubts;
}

export function decidePlanChange(input: PlanChangeInput): PlanChangeDecision {
  const reverify = new Map<string, string>();
  const kept: string[] = [];
  const renumberedDone = new Map<string, string>();
  for (const change of input.changes) {
    if (change.kind !== 'renumbered') continue;
    const why = input.completed.get(change.from);
    if (why !== undefined && !input.completed.has(change.id)) renumberedDone.set(change.id, `completed as phase ${change.from} (${why})`);
  }
  for (const [id, why] of doubted(input.changes)) {
    if (!input.completed.has(id) && !renumberedDone.has(id)) continue;
    if (input.trustCompleted) kept.push(id);
    else reverify.set(id, `${why} since it completed`);
  }
  return { reverify, kept, renumberedDone };
}

/** What changed and what debussy does about it, one line each (the run's start, `debussy status`). */
export function planChangeLines(changes: readonly PlanChange[], reverify: readonly string[], kept: readonly string[]): string[] {
  const why = doubted(changes);
  return [
    ...changes.map(describePlanChange),
    ...reverify.map((id) => `phase ${id}: ${why.get(id) ?? 'it changed'} since it completed: its gates run again before it counts as done (--trust-completed skips this)`),
    ...kept.map((id) => `phase ${id}: ${why.get(id) ?? 'it changed'}; still taken as done (--trust-completed)`),
  ];
}
