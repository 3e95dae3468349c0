/**
 * Turns a failed session into a recovery decision: classify it from its events and exit, feed the
 * run's circuit breaker and the phase's crash-loop guard, and ask the recovery policy. Records the
 * decision in the journal; the phase runner carries it out.
 */
import type { DebussyConfig } from '../config/index.js';
import {
  chooseRecovery, classifySessionEnd, countsTowardCircuit, mainRecurringPattern,
  type FailureClassification, type RecoveryAction, type RecoveryState,
} from '../recovery/index.js';
import type { PhaseContext } from './phase-context.js';
import type { RunRecovery } from './run-recovery.js';
import type { SessionReport } from './session-runner.js';

/**
 * Whether the session failed (as opposed to ending, being stopped by debussy, or signalling). A
 * session that ended by itself without the agent's signal after claude refused some of its tool
 * calls failed for want of permission: reminding the agent would only repeat the refusals.
 */
export function sessionFailed(report: Pick<SessionReport, 'stoppedBy' | 'refusals'> & { end: Pick<SessionReport['end'], 'outcome'> }, signalled: boolean): boolean {
  if (signalled || report.stoppedBy === 'context' || report.stoppedBy === 'compaction' || report.stoppedBy === 'interrupt') return false;
  if (report.stoppedBy === 'stall' || report.stoppedBy === 'timeout') return true;
  if (report.refusals.length > 0) return true;
  return report.end.outcome !== 'completed';
}

export interface FailureDecision {
  failure: FailureClassification;
  action: RecoveryAction;
}

export function decideRecovery(
  ctx: PhaseContext,
  recovery: RunRecovery,
  phaseId: string,
  report: SessionReport,
  state: RecoveryState,
  config: DebussyConfig,
): FailureDecision {
  const now = Date.now();
  // The texts a failure message is cut from are redacted whole first (classify.ts).
  const failure = classifySessionEnd(report, { now, redact: ctx.recorder.redact });
  if (countsTowardCircuit(failure.class)) recovery.breaker.recordFailure();
  const crashLoop = failure.class === 'agent_crash' ? recovery.crashGuard.recordCrash(phaseId, failure.message) : recovery.crashGuard.status(phaseId);
  recovery.failures.push({ class: failure.class, message: failure.message, at: now, phaseId, correlationKey: failure.correlationKey });

  const action = chooseRecovery(state, failure, config, {
    now,
    random: Math.random,
    ...(report.end.sessionId === undefined ? {} : { sessionId: report.end.sessionId }),
    circuit: recovery.breaker.status(),
    crashLoop,
  });
  ctx.recorder.record({
    type: 'recovery',
    phaseId,
    failureClass: failure.class,
    severity: failure.severity,
    message: failure.message,
    correlationKey: failure.correlationKey,
    action: action.kind,
    reason: action.reason,
    ...('delayMs' in action ? { delayMs: action.delayMs } : {}),
    ...('model' in action && action.model !== undefined ? { model: action.model } : {}),
    circuit: recovery.breaker.toJSON(),
    crashLoop: recovery.crashGuard.toJSON(),
  });
  const pattern = mainRecurringPattern(recovery.failures);
  if (pattern && !recovery.announcedPatterns.has(pattern.class)) {
    recovery.announcedPatterns.add(pattern.class);
    ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: `recurring failure: ${pattern.count} × ${pattern.class} in this run; likely cause: ${pattern.likelyRootCause}` });
  }
  return { failure, action };
}
