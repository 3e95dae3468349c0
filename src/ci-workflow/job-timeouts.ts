/**
 * `timeout-minutes` of the generated jobs, from the limits the config sets. A phase job's longest
 * honest run is every session it may start (each attempt's restarts) at the session timeout, plus
 * its gates at each verification; past that it is stuck, and the runner should end it. Without a
 * session timeout nothing bounds a session, so the job gets GitHub-hosted runners' own limit.
 * Pure.
 */
import type { DebussyConfig } from '../config/schema.js';

/** A job on a GitHub-hosted runner ends at 6 hours whatever it asks for. */
export const HOSTED_RUNNER_LIMIT_MINUTES = 360;
/** Checkout, Node, the project's set-up and the installs, with room to spare. */
export const SETUP_MINUTES = 15;

export type TimeoutLimits = Pick<DebussyConfig, 'session_timeout' | 'gate_timeout' | 'max_restarts' | 'max_retries' | 'baseline_gates'>;

function minutes(ms: number): number {
  return Math.ceil(ms / 60_000);
}

function capped(total: number): number {
  return Math.min(HOSTED_RUNNER_LIMIT_MINUTES, total);
}

export function phaseJobTimeout(limits: TimeoutLimits, gateCount: number): number {
  if (limits.session_timeout === undefined) return HOSTED_RUNNER_LIMIT_MINUTES;
  const attempts = limits.max_retries + 1;
  const sessions = attempts * (limits.max_restarts + 1);
  // Gates run after each attempt, and once before the first session with baseline_gates.
  const gateRuns = (attempts + (limits.baseline_gates ? 1 : 0)) * gateCount;
  return capped(SETUP_MINUTES + sessions * minutes(limits.session_timeout) + gateRuns * minutes(limits.gate_timeout));
}

/** The verify job runs every phase's gates once. */
export function verifyJobTimeout(limits: TimeoutLimits, gateCount: number): number {
  return capped(SETUP_MINUTES + gateCount * minutes(limits.gate_timeout));
}

/** The push job only moves refs. */
export const PUSH_JOB_TIMEOUT = SETUP_MINUTES;
