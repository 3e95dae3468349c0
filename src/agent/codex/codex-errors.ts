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
import { failureClassOf, kindOfStatus, type AgentError, type AgentErrorKind } from '../agent-errors.js';
import { isRecord } from '../json-fields.js';

export { apiErrorType, kindOfStatus, type AgentFailureClass as CodexFailureClass } from '../agent-errors.js';
export type CodexErrorKind = AgentErrorKind;
export type CodexError = AgentError;

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
  return { kind: found.kind, failureClass: failureClassOf(found.kind), ...(found.httpStatus === undefined ? {} : { httpStatus: found.httpStatus }) };
}

/** codex's retry notice, "Reconnecting... 2/5" (app-server message, exec --json text): attempt and limit. */
export function parseReconnecting(text: string): { attempt: number; maxRetries: number } | undefined {
  const match = /Reconnecting\.\.\.\s*(\d+)\/(\d+)/.exec(text);
  return match === null ? undefined : { attempt: Number(match[1]), maxRetries: Number(match[2]) };
}

