/**
 * At the start of a run: the plan as it is now against the fingerprint the run before recorded,
 * and what that changes in what the new run takes as done (verification/plan-change.ts decides).
 */
import type { PlanFingerprint } from '../plan/fingerprint.js';
import { diffPlans } from '../plan/plan-diff.js';
import type { PlanChangedEvent, RunState } from '../state/index.js';
import { decidePlanChange, planChangeLines } from '../verification/plan-change.js';
import type { ResumePlan } from './resume-plan.js';

export interface PlanChangeAtStart {
  event: Omit<PlanChangedEvent, 'v' | 'ts' | 'pid'>;
  /** What changed and what the run does about it, one line each. */
  lines: string[];
  /** The resume plan with changed completed phases taken out and renumbered ones taken in. */
  resume: ResumePlan;
}

/** Undefined when there is no earlier fingerprint (first run, --fresh, an older journal) or nothing changed. */
export function checkPlanChange(previous: RunState | undefined, now: PlanFingerprint, resume: ResumePlan, trustCompleted: boolean): PlanChangeAtStart | undefined {
  if (previous?.planFingerprint === undefined) return undefined;
  const changes = diffPlans(previous.planFingerprint, now);
  if (changes.length === 0) return undefined;
  const decision = decidePlanChange({ changes, completed: resume.completed, trustCompleted });
  const completed = new Map(resume.completed);
  for (const [id, why] of decision.renumberedDone) completed.set(id, why);
  const carry = new Map(resume.carry);
  for (const [id, why] of decision.reverify) {
    completed.delete(id);
    carry.set(id, { ...(carry.get(id) ?? { restarts: 0, retries: 0, sessions: 0 }), reverify: why });
  }
  return {
    event: { type: 'plan_changed', sinceRunId: previous.runId, changes, reverify: [...decision.reverify.keys()], kept: decision.kept },
    lines: planChangeLines(changes, [...decision.reverify.keys()], decision.kept),
    resume: { ...resume, completed, carry },
  };
}
