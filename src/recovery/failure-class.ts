/**
 * The failure classes a session end can fall into, and what each one means for the user: how bad
 * it is, whether trying again can help, and what to do about it. One table so the classifier, the
 * policy and the notifications cannot disagree.
 */
import { docFile } from '../install/package-files.js';

export type FailureClass =
  | 'context_overflow'
  | 'rate_limit'
  | 'overloaded'
  | 'server_error'
  | 'network'
  | 'stall'
  | 'timeout'
  | 'authentication'
  | 'invalid_request'
  | 'agent_crash'
  | 'turn_limit'
  | 'budget_limit'
  | 'permissions'
  | 'unknown';

export type FailureSeverity = 'low' | 'medium' | 'high' | 'critical';

export interface FailureClassInfo {
  /** A few words for live output: "rate limit", "context overflow". */
  label: string;
  severity: FailureSeverity;
  retryable: boolean;
  /** The default sentence telling the user what to do; the classifier may replace it. */
  suggestedAction: string;
}

export const FAILURE_CLASSES: Readonly<Record<FailureClass, FailureClassInfo>> = {
  context_overflow: {
    label: 'context overflow',
    severity: 'medium',
    retryable: true,
    suggestedAction:
      'debussy continues in a fresh session from a condensed checkpoint; if it keeps overflowing, split the phase or attach fewer files and tools.',
  },
  rate_limit: {
    label: 'rate limit',
    severity: 'low',
    retryable: true,
    suggestedAction: 'debussy waits until the limit resets and continues; lower the concurrency of other clients on this key if it recurs.',
  },
  overloaded: {
    label: 'API overloaded',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The API is overloaded (529): debussy backs off and retries; set fallback_models to let it switch models.',
  },
  server_error: {
    label: 'API server error',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The API returned a server error: debussy backs off and retries; check the provider status page if it persists.',
  },
  network: {
    label: 'network error',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The API could not be reached: check the network, proxy and ANTHROPIC_BASE_URL; debussy retries after a backoff.',
  },
  stall: {
    label: 'stalled session',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The session produced no events for stall_timeout and was ended; debussy retries. Raise stall_timeout if tools legitimately run quietly that long.',
  },
  timeout: {
    label: 'session timeout',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The session reached session_timeout; debussy continues in a fresh session. Raise session_timeout or split the phase.',
  },
  authentication: {
    label: 'authentication failed',
    severity: 'critical',
    retryable: false,
    suggestedAction: 'The API rejected the credentials. Check ANTHROPIC_API_KEY (or log in again with `claude /login`), then run `debussy run` again.',
  },
  invalid_request: {
    label: 'invalid request',
    severity: 'high',
    retryable: false,
    suggestedAction: 'The API rejected the request as invalid: check the model name, claude_args and the plan, then run `debussy run` again.',
  },
  agent_crash: {
    label: 'agent crash',
    severity: 'high',
    retryable: true,
    suggestedAction: 'The claude process ended without a result; debussy continues from the checkpoint. If it keeps crashing, read the session log (`debussy logs`).',
  },
  turn_limit: {
    label: 'turn limit',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The session used all its turns (--max-turns); debussy continues in a fresh session. Raise --max-turns in claude_args if this recurs.',
  },
  budget_limit: {
    label: 'budget limit',
    severity: 'high',
    retryable: false,
    suggestedAction: 'The session reached its spending cap (--max-budget-usd); raise it in claude_args if the phase needs more, then run `debussy run` again.',
  },
  permissions: {
    label: 'permission refused',
    severity: 'high',
    retryable: false,
    suggestedAction:
      `Allow what the phase needs with permission_mode / allowed_tools in .debussy/config.yaml (or --permission-mode / --allowed-tools), then run \`debussy run\` again; ${docFile('permissions.md')} says what each choice risks.`,
  },
  unknown: {
    label: 'unknown failure',
    severity: 'medium',
    retryable: true,
    suggestedAction: 'The session failed for an unrecognised reason; debussy retries. Read the session log (`debussy logs`) if it recurs.',
  },
};

export const FAILURE_CLASS_NAMES = Object.keys(FAILURE_CLASSES) as FailureClass[];

export function isFailureClass(value: unknown): value is FailureClass {
  return typeof value === 'string' && Object.hasOwn(FAILURE_CLASSES, value);
}

/**
 * Whether a failure says something about the health of the API or the agent, and so counts toward
 * the circuit breaker. A rate limit has its own wait; turn and budget limits and permissions are the user's settings.
 */
export function countsTowardCircuit(failureClass: FailureClass): boolean {
  return failureClass !== 'rate_limit' && failureClass !== 'turn_limit' && failureClass !== 'budget_limit' && failureClass !== 'permissions';
}
