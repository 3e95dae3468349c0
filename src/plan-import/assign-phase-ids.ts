/**
 * From the source's ids to debussy's: a source whose ids are all usable phase ids (`1`, `2.1`)
 * keeps them; otherwise (`US-001`, ids used twice after normalising) every phase is numbered 1, 2,
 * 3... in source order, and each phase file keeps its source id in view. Phases the source
 * cancelled or deferred are left out, and so are dependencies on them or on ids the source does not
 * have: each such decision becomes a notice. Cycles are kept: the audit names them. Pure.
 */
import { isPhaseIdToken } from '../plan/phase-ids.js';
import type { ImportedPhase, ImportedPlan } from './imported-plan.js';

export interface PlannedPhase extends ImportedPhase {
  /** The debussy id. */
  id: string;
  /** Debussy ids of the phases it depends on. */
  dependsOnIds: string[];
}

export interface PlannedPhases {
  phases: PlannedPhase[];
  /** `task 7 (cancelled)`. */
  leftOut: string[];
  notices: string[];
  renumbered: boolean;
}

export function assignPhaseIds(plan: ImportedPlan): PlannedPhases {
  const kept = plan.phases.filter((phase) => phase.leftOut === undefined);
  const leftOut = new Map(plan.phases.filter((phase) => phase.leftOut !== undefined).map((phase) => [phase.sourceId, phase]));
  const usable = kept.every((phase) => isPhaseIdToken(phase.sourceId)) && new Set(kept.map((phase) => phase.sourceId)).size === kept.length;
  const idOf = new Map(kept.map((phase, index) => [phase.sourceId, usable ? phase.sourceId : String(index + 1)]));
  const notices: string[] = [];
  const phases = kept.map((phase): PlannedPhase => {
    const id = idOf.get(phase.sourceId) ?? phase.sourceId;
    const dependsOnIds: string[] = [];
    for (const dep of phase.dependsOn) {
      const target = idOf.get(dep);
      const gone = leftOut.get(dep);
      if (target !== undefined) {
        if (target !== id && !dependsOnIds.includes(target)) dependsOnIds.push(target);
      } else if (gone !== undefined) {
        notices.push(`${phase.sourceLabel} depended on ${gone.sourceLabel}, which is ${gone.leftOut} and left out: that dependency is dropped; check that phase ${id} can run without it`);
      } else {
        notices.push(`${phase.sourceLabel} depends on ${dep}, which the source does not have: that dependency is dropped`);
      }
    }
    return { ...phase, id, dependsOnIds };
  });
  return {
    phases,
    leftOut: [...leftOut.values()].map((phase) => `${phase.sourceLabel} "${phase.title}" (${phase.leftOut ?? ''})`),
    notices,
    renumbered: !usable,
  };
}
