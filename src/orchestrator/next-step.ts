/**
 * The restart decision: after a session ends, what happens to the phase next. Pure: everything it
 * needs is in its input, so every branch is a table row in the tests. Sessions that failed (API
 * errors, crashes, stalls, timeouts) go to the recovery policy instead (session-failure.ts); what
 * reaches this function ended on a signal, at the context threshold, by interrupt, or cleanly.
 */
import type { SessionOutcome } from '../agent/index.js';
import type { SignalStatus } from '../state/index.js';
import type { StopCause } from './session-runner.js';

export interface NextStepInput {
  phaseId: string;
  /** The completion signal recorded for this attempt, if any. */
  signal: { status: SignalStatus; reason?: string } | undefined;
  outcome: SessionOutcome;
  stoppedBy: StopCause | undefined;
  /** The figure that made debussy stop it, e.g. "context at 82.0% (threshold 80%)". */
  crossingText: string | undefined;
  restarts: number;
  maxRestarts: number;
  retries: number;
  maxRetries: number;
  /** Whether this attempt was already continued once with the reminder. */
  alreadyContinued: boolean;
  /** The claude session id, needed to continue it. */
  sessionId: string | undefined;
  failureText: string | undefined;
}

export type NextStep =
  | { kind: 'verify' }
  | { kind: 'blocked'; reason: string }
  | { kind: 'interrupted' }
  /** A fresh session from a checkpoint; `restarts` is the count after it. */
  | { kind: 'restart'; reason: string; restarts: number }
  | { kind: 'continue'; reason: string }
  /** A fresh session that uses one of max_retries; `retries` is the count after it. */
  | { kind: 'retry'; reason: string; retries: number }
  | { kind: 'fail'; reason: string; hint: string };

function retryOrFail(input: NextStepInput, reason: string, hint: string): NextStep {
  if (input.retries < input.maxRetries) return { kind: 'retry', reason, retries: input.retries + 1 };
  return {
    kind: 'fail',
    reason: `${reason}; no retries left (max_retries ${input.maxRetries})`,
    hint,
  };
}

export function decideNextStep(input: NextStepInput): NextStep {
  if (input.stoppedBy === 'interrupt') return { kind: 'interrupted' };
  if (input.signal?.status === 'completed') return { kind: 'verify' };
  if (input.signal?.status === 'blocked') return { kind: 'blocked', reason: input.signal.reason ?? 'no reason given' };
  if (input.signal?.status === 'failed') {
    return retryOrFail(input, `the agent reported the phase failed${input.signal.reason ? `: ${input.signal.reason}` : ''}`, 'Read the session log (`debussy logs`) and fix what the agent could not.');
  }
  if (input.stoppedBy === 'context' || input.stoppedBy === 'compaction') {
    const figure = input.crossingText ?? 'the context limit was reached';
    if (input.restarts < input.maxRestarts) return { kind: 'restart', reason: figure, restarts: input.restarts + 1 };
    return {
      kind: 'fail',
      reason: `phase ${input.phaseId}: ${figure} again after ${input.restarts} restart(s) (max_restarts ${input.maxRestarts})`,
      hint: 'Split the phase into smaller phases, or raise --max-restarts or --context-threshold.',
    };
  }
  if (input.outcome === 'completed') {
    if (!input.alreadyContinued && input.sessionId !== undefined) {
      return { kind: 'continue', reason: 'the session ended without signalling completion' };
    }
    return retryOrFail(input, 'the session ended without signalling completion', 'Check that the phase prompt tells the agent to run `debussy done`, and read the session log.');
  }
  const failure = input.failureText ? `: ${input.failureText}` : '';
  return retryOrFail(input, `the session ended with ${input.outcome}${failure}`, 'Read the session log (`debussy logs`) to see what went wrong.');
}
