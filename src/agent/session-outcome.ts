/**
 * How a session ended, from its `result` event and what happened to the process: never from the
 * exit code alone (claude exits 0 without a result when interrupted while waiting for the API).
 * Pure.
 */
import type { ResultEvent } from './agent-events.js';
import type { SessionOutcome } from './agent-session.js';


export interface SessionEndFacts {
  result: ResultEvent | undefined;
  /** debussy sent the stop signal (SIGINT) itself. */
  stopSignalled: boolean;
  /** `kill()` was called. */
  killRequested: boolean;
  /** The stream carried the CLI's synthetic API-error message. */
  apiErrorSeen: boolean;
  /**
   * After a stop was asked for, debussy's tool guard refused a tool call: a run the CLI then ended
   * by itself, successfully, ended because of the stop.
   */
  guardRefused?: boolean;
}

// The CLI ends these without calling the API successfully: the request itself was refused, or
// (2.1.332, `api_error`) the API answered with an error.
const API_TERMINAL_REASONS = new Set(['prompt_too_long', 'blocking_limit', 'api_error']);

export function sessionOutcomeOf(facts: SessionEndFacts): SessionOutcome {
  const { result } = facts;
  if (facts.killRequested) return 'killed';
  if (result === undefined) return facts.stopSignalled ? 'stopped' : 'crashed';
  if (!result.isError && result.subtype === 'success') return facts.guardRefused === true ? 'stopped' : 'completed';
  // After our SIGINT, the CLI reports the aborted turn as an error: that is the stop we asked for.
  if (facts.stopSignalled) return 'stopped';
  const apiStatus = result.apiErrorStatus;
  if (facts.apiErrorSeen || (apiStatus !== undefined && apiStatus !== null) || API_TERMINAL_REASONS.has(result.terminalReason ?? '')) {
    return 'api_error';
  }
  return 'error';
}
