/**
 * The end-of-run regression check (regression_gates: end) a run owes when it starts, from the run
 * before it. A check cut short (Ctrl-C or kill -9 while its gates ran, or before it started) is a
 * pending check, never a passed one: the next run owes what that run owed, the phases it completed,
 * and the regressions it found, even when no phase is left to run. A check that ran to its end
 * leaves only the regressions it found (checked again until they pass). Pure.
 */
import type { OwedRegression, RunState } from '../state/index.js';

export interface OwedEndCheck {
  /** Phases completed and not yet checked, in the order they completed: the suspects of a broken gate. */
  phases: string[];
  /** Gates found failing at a run's end, with who was suspected then. */
  regressions: OwedRegression[];
}

export function owedEndCheck(prior: RunState | undefined): OwedEndCheck {
  if (prior === undefined) return { phases: [], regressions: [] };
  const found = (prior.regressions ?? [])
    .filter((r) => !r.passed && r.mode === 'end')
    .map((r): OwedRegression => ({ phaseId: r.phaseId, name: r.name, suspects: r.suspects ?? [] }));
  // A journal from before regression_check: a completed run owed nothing more.
  const finished = prior.endCheck?.finished ?? prior.status === 'completed';
  if (finished) return { phases: [], regressions: byGate(found) };
  const completedThere = prior.phaseOrder.filter((id) => prior.phases[id]?.status === 'completed' && (prior.phases[id]?.attempts ?? 0) > 0);
  return {
    phases: [...new Set([...(prior.endCheck?.phases ?? []), ...completedThere])],
    regressions: byGate([...(prior.endCheck?.regressions ?? []), ...found]),
  };
}

/** One entry per gate; a later finding replaces an earlier one. */
function byGate(regressions: readonly OwedRegression[]): OwedRegression[] {
  return [...new Map(regressions.map((r) => [`${r.phaseId}\0${r.name}`, r])).values()];
}
