/** The fingerprint of a plan as it is on disk now: fingerprint.ts over the files' current texts. */
import { readFileSync } from 'node:fs';
import { fingerprintPlan, type PlanFingerprint } from './fingerprint.js';
import type { Plan } from './types.js';

function textOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // missing or unreadable: the audit reports it; here it is "no file"
  }
}

export function readPlanFingerprint(plan: Plan): PlanFingerprint {
  return fingerprintPlan(plan, textOrUndefined);
}
