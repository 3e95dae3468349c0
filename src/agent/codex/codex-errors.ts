/**
 * codex's API failures in debussy's failure classes. The app-server reports them structured
 * (`error` notifications and a failed turn's `error`: message, codexErrorInfo, willRetry); `exec
 * --json` and the rollout file only as text. Both are read here. Pure; the shapes and texts are
 * codex 0.171.0's, measured in test/harness/codex-app-server-errors.test.ts:
 * - context overflow (a 400 or a response.failed with code context_length_exceeded): "contextWindowExceeded";
 * - 429 retried until the retries run out: {responseTooManyFailedAttempts: {httpStatusCode: 429}};
 * - insufficient_quota: "usageLimitExceeded", "Quota exceeded. Check your plan and billing details.";
 * - 401, 503: {httpConnectionFailed: {httpStatusCode}}; 500: "internalServerError".
 */
import { isRecord } from '../json-fields.js';

/**
 * The names of src/recovery/failure-class.ts's FailureClass this classifier uses, restated:
 * recovery/ depends on agent/, so agent/ cannot import it (a test checks every name is a FailureClass).
 */
export type CodexFailureClass =
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

/** What went wrong, finer than a FailureClass where codex tells more (a quota is not a rate limit). */
export type CodexErrorKind =
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

export interface CodexError {
  kind: CodexErrorKind;
  /** debussy's class for the kind (a quota is an invalid request: no retry helps until credit is added). */
  failureClass: CodexFailureClass;
  /** The HTTP status codex names, when it names one. */
  httpStatus?: number;
}

const CLASS_OF: Readonly<Record<CodexErrorKind, CodexFailureClass>> = {
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

/** codexErrorInfo's plain variants (v2 CodexErrorInfo). */
const INFO_KINDS: Readonly<Record<string, CodexErrorKind>> = {
  contextWindowExceeded: 'context_overflow',
  rateLimitExceeded: 'rate_limit',
  serverOverloaded: 'overloaded',
  flexUnavailable: 'overloaded',
  policyCapacityUnavailable: 'overloaded',
  internalServerError: 'server_error',
  unauthorized: 'authentication',
  badRequest: 'invalid_request',
  modelNotFound: 'invalid_request',
  sessionBudgetExceeded: 'budget_limit',
  cyberPolicy: 'policy',
  bioPolicy: 'policy',
  misalignmentPolicyViolation: 'policy',
  inferenceHookDenied: 'permissions',
  tooManyDenials: 'permissions',
  sandboxError: 'agent_crash',
};

/** The variants that carry `{httpStatusCode}`: the status decides, none means the connection itself. */
const STATUS_VARIANTS = ['httpConnectionFailed', 'responseStreamConnectionFailed', 'responseStreamDisconnected', 'responseTooManyFailedAttempts'];

export function kindOfStatus(status: number): CodexErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'authentication';
  if (status === 413) return 'context_overflow';
  if (status === 408) return 'network';
  if (status === 500) return 'server_error';
  if (status >= 500) return 'overloaded';
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

const TEXT_KINDS: ReadonlyArray<[RegExp, CodexErrorKind]> = [
  [/ran out of room in the model's context window|context_length_exceeded|exceeds the context window/i, 'context_overflow'],
  [/quota exceeded|insufficient_quota|check your plan and billing/i, 'quota'],
  [/you've hit your usage limit|usage limit/i, 'usage_limit'],
  [/\b429\b|too many requests|rate limit/i, 'rate_limit'],
  [/\b401\b|\b403\b|unauthorized|api key|authentication/i, 'authentication'],
  [/\b50[234]\b|overloaded|high demand/i, 'overloaded'],
  [/\b500\b|internal server error/i, 'server_error'],
  [/stream disconnected|connection (?:refused|reset|closed)|error sending request|timed out|idle timeout/i, 'network'],
];

/** A kind from codex's words alone (exec --json, the rollout, or an "other" error). */
export function kindOfText(text: string): CodexErrorKind {
  for (const [pattern, kind] of TEXT_KINDS) if (pattern.test(text)) return kind;
  return 'unknown';
}

export interface CodexErrorReport {
  message?: string;
  codexErrorInfo?: unknown;
  additionalDetails?: string | null;
}

function fromInfo(info: unknown, message: string): { kind: CodexErrorKind; httpStatus?: number } | undefined {
  if (typeof info === 'string') {
    if (info === 'usageLimitExceeded') return { kind: kindOfText(message) === 'quota' ? 'quota' : 'usage_limit' };
    const kind = INFO_KINDS[info];
    return kind === undefined ? undefined : { kind };
  }
  if (!isRecord(info)) return undefined;
  for (const variant of STATUS_VARIANTS) {
    const detail = info[variant];
    if (!isRecord(detail)) continue;
    const status = detail.httpStatusCode;
    if (typeof status === 'number') return { kind: kindOfStatus(status), httpStatus: status };
    return { kind: 'network' };
  }
  return undefined;
}

/** The class of one codex error; codexErrorInfo wins, the words decide when it says nothing. */
export function classifyCodexError(report: CodexErrorReport): CodexError {
  const text = [report.message, report.additionalDetails].filter((t): t is string => typeof t === 'string').join('\n');
  const found = fromInfo(report.codexErrorInfo, text) ?? { kind: kindOfText(text) };
  return { kind: found.kind, failureClass: CLASS_OF[found.kind], ...(found.httpStatus === undefined ? {} : { httpStatus: found.httpStatus }) };
}

/** codex's retry notice, "Reconnecting... 2/5" (app-server message, exec --json text): attempt and limit. */
export function parseReconnecting(text: string): { attempt: number; maxRetries: number } | undefined {
  const match = /Reconnecting\.\.\.\s*(\d+)\/(\d+)/.exec(text);
  return match === null ? undefined : { attempt: Number(match[1]), maxRetries: Number(match[2]) };
}

/**
 * The api_error event's errorType for a codex error: the API error type names recovery/classify.ts
 * already reads (claude's), so a codex session's end is classified by the same rules. A context
 * overflow is told by the result's terminalReason instead (resultEvent); a network failure has no
 * such name (classify reads its words).
 */
export function apiErrorType(kind: CodexErrorKind): string {
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
