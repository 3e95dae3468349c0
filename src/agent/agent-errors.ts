/**
 * The API failures of the agents that report them in their own words (codex, gemini), in debussy's
 * failure classes and in the error names recovery/classify.ts already reads for Claude Code. Each
 * driver reads its agent's words into an AgentError (codex/codex-errors.ts, gemini/gemini-errors.ts).
 * Pure.
 */

/**
 * The names of src/recovery/failure-class.ts's FailureClass this classifier uses, restated:
 * recovery/ depends on agent/, so agent/ cannot import it (a test checks every name is a FailureClass).
 */
export type AgentFailureClass =
  | 'context_overflow'
  | 'rate_limit'
  | 'overloaded'
  | 'server_error'
  | 'network'
  | 'authentication'
  | 'invalid_request'
  | 'budget_limit'
  | 'permissions'
  | 'agent_crash'
  | 'unknown';

/** What went wrong, finer than a FailureClass where the agent tells more (a quota is not a rate limit). */
export type AgentErrorKind =
  | 'context_overflow'
  | 'rate_limit'
  | 'usage_limit'
  | 'quota'
  | 'overloaded'
  | 'server_error'
  | 'network'
  | 'authentication'
  | 'invalid_request'
  | 'policy'
  | 'budget_limit'
  | 'permissions'
  | 'agent_crash'
  | 'unknown';

export interface AgentError {
  kind: AgentErrorKind;
  /** debussy's class for the kind (a quota is an invalid request: no retry helps until credit is added). */
  failureClass: AgentFailureClass;
  /** The HTTP status the agent names, when it names one. */
  httpStatus?: number;
}

const CLASS_OF: Readonly<Record<AgentErrorKind, AgentFailureClass>> = {
  context_overflow: 'context_overflow',
  rate_limit: 'rate_limit',
  usage_limit: 'rate_limit',
  quota: 'invalid_request',
  overloaded: 'overloaded',
  server_error: 'server_error',
  network: 'network',
  authentication: 'authentication',
  invalid_request: 'invalid_request',
  policy: 'invalid_request',
  budget_limit: 'budget_limit',
  permissions: 'permissions',
  agent_crash: 'agent_crash',
  unknown: 'unknown',
};

/** The class of an error kind. */
export function failureClassOf(kind: AgentErrorKind): AgentFailureClass {
  return CLASS_OF[kind];
}

/** The kind an HTTP status means, when nothing more specific is known. */
export function kindOfStatus(status: number): AgentErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'authentication';
  if (status === 413) return 'context_overflow';
  if (status === 408) return 'network';
  if (status === 500) return 'server_error';
  if (status >= 500) return 'overloaded';
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

/**
 * The api_error event's errorType for an agent's error: the API error type names recovery/classify.ts
 * already reads (claude's), so a codex or gemini session's end is classified by the same rules. A context
 * overflow is told by the result's terminalReason instead (resultEvent); a network failure has no
 * such name (classify reads its words).
 */
export function apiErrorType(kind: AgentErrorKind): string {
  switch (kind) {
    case 'rate_limit':
    case 'usage_limit':
      return 'rate_limit';
    case 'quota':
      return 'billing_error';
    case 'overloaded':
      return 'overloaded';
    case 'server_error':
      return 'server_error';
    case 'authentication':
      return 'authentication_failed';
    case 'context_overflow':
    case 'invalid_request':
    case 'policy':
      return 'invalid_request';
    default:
      return kind;
  }
}
