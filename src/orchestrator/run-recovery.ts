/**
 * Recovery state shared by every phase of a run: the circuit breaker around agent sessions, the
 * crash-loop guard, and the failures seen so far (for recurring patterns and notifications). Both
 * guards are restored from the journal of the run being resumed, so a resume cannot reset them.
 */
import type { DebussyConfig } from '../config/index.js';
import { CircuitBreaker, CrashLoopGuard, isFailureClass, type FailureRecord } from '../recovery/index.js';
import type { JournalEvent } from '../state/index.js';

export interface RunRecovery {
  breaker: CircuitBreaker;
  crashGuard: CrashLoopGuard;
  failures: FailureRecord[];
  /** Patterns already announced, by class. */
  announcedPatterns: Set<string>;
}

export function createRunRecovery(config: DebussyConfig, previousEvents: readonly JournalEvent[] = []): RunRecovery {
  const breakerConfig = {
    failure_threshold: config.failure_threshold,
    monitor_window: config.monitor_window,
    reset_timeout: config.reset_timeout,
    half_open_successes: config.half_open_successes,
  };
  const crashConfig = { max_crashes: config.max_crashes, crash_window: config.crash_window };
  const last = [...previousEvents].reverse().find((e): e is Extract<JournalEvent, { type: 'recovery' }> => e.type === 'recovery');
  const failures: FailureRecord[] = previousEvents
    // A class this debussy does not know (a newer journal, a damaged line) cannot be counted as one.
    .flatMap((e) => (e.type === 'recovery' && isFailureClass(e.failureClass)
      ? [{ class: e.failureClass, message: e.message, at: Date.parse(e.ts), phaseId: e.phaseId, correlationKey: e.correlationKey }]
      : []));
  return {
    breaker: last?.circuit ? CircuitBreaker.fromSnapshot(last.circuit, breakerConfig) : new CircuitBreaker(breakerConfig),
    crashGuard: last?.crashLoop ? CrashLoopGuard.fromSnapshot(last.crashLoop, crashConfig) : new CrashLoopGuard(crashConfig),
    failures,
    announcedPatterns: new Set(),
  };
}
