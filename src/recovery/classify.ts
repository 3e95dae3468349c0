/**
 * Classifies how an agent session failed, from what the claude CLI reported (exit, signal, the
 * `result` line, the synthetic API-error message, retries) and what debussy's own watchdogs saw.
 * Pure: it reads the session runner's report as it is (FailedSession); nothing here runs a process.
 *
 * Call it only for sessions that did not end well: a session that signalled completion or that
 * debussy stopped at the context threshold is not a failure.
 */
import { FAILURE_CLASSES, type FailureClass, type FailureSeverity } from './failure-class.js';
import type { SessionEnd, StopCause } from '../agent/agent-session.js';
import { describeRefusals, type Refusal } from '../agent/refusals.js';
import type { Redactor } from '../redact/index.js';
import { cutText } from '../redact/redact-then-cut.js';
import { parseRetryHint } from './retry-hint.js';

/**
 * What classification reads of a failed session: the session runner's report as it is, the agent's
 * SessionEnd inside it unchanged.
 */
export interface FailedSession {
  end: Pick<SessionEnd, 'outcome' | 'exitCode' | 'signal' | 'sawResult' | 'result' | 'stderrTail' | 'lastApiError' | 'lastRetry'>;
  /** debussy stopped it: its stall watchdog or session_timeout decide the class whatever came after. */
  stoppedBy: StopCause | undefined;
  /**
   * The tool calls claude refused for want of permission, one summary each ("Bash: npm test"):
   * they explain a session that ended with a result but without its completion signal.
   */
  refusals: readonly Pick<Refusal, 'summary'>[];
}

export interface FailureClassification {
  class: FailureClass;
  severity: FailureSeverity;
  retryable: boolean;
  /** HTTP status of the failed API call, when known. */
  status?: number;
  /** One line saying what happened, from the CLI's own words where it gave any. */
  message: string;
  /** One sentence for the user: what debussy does, what they can do. */
  suggestedAction: string;
  /** Class plus a normalised status/message: equal for the same failure across sessions and runs. */
  correlationKey: string;
  /** A wait the failure asked for. */
  retryAfterMs?: number;
  /** Epoch ms before which the next attempt should not start (a rate-limit reset). */
  resetAt?: number;
}

export interface ClassifyOptions {
  /** The current time, to turn "resets 3pm" into a timestamp. Defaults to Date.now(). */
  now?: number;
  /**
   * Applied to each text the failure message is cut from (the result, the API error, stderr),
   * whole and before the cut: a secret cut first would no longer be recognised.
   */
  redact?: Redactor;
}

/** The texts of a failed session as classification reads them: redacted whole. */
interface FailureTexts {
  result: string | undefined;
  apiError: string | undefined;
  stderr: string;
}

const OVERFLOW = [
  /prompt is too long/i,
  /maximum context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /context window (?:is )?(?:full|exceeded)/i,
  /exceeds? (?:the )?(?:model'?s? )?context (?:window|limit)/i,
  /input (?:is )?too long/i,
  /too many (?:input )?tokens/i,
  /exceeds? (?:the )?(?:maximum )?token limit/i,
  /context overflow/i,
  /request[_ ]too[_ ]large/i,
  /reduce the length of the messages/i,
];
const AUTH = [
  /invalid (?:x-)?api[- _]?key/i,
  /authentication[_ ](?:error|failed)/i,
  /\bunauthori[sz]ed\b/i,
  /permission_error/i,
  /oauth token (?:has )?(?:expired|revoked)/i,
  /please run \/login/i,
  /invalid bearer token/i,
];
const RATE_LIMIT = [/rate[ _-]?limit/i, /too many requests/i, /usage limit/i, /\blimit reached\b/i, /hit your (?:usage )?limit/i];
const OVERLOADED = [/overloaded/i];
const NETWORK = [
  /\b(?:ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|ENETUNREACH|EHOSTUNREACH|ECONNABORTED)\b/,
  /ConnectionRefused|ConnectionReset|ConnectionClosed/,
  /socket hang up/i,
  /fetch failed/i,
  /unable to connect/i,
  /connection (?:error|refused|reset|closed|dropped|timed out)/i,
  /network error/i,
  /other side closed/i,
  /request timed out/i,
  // codex: "stream disconnected before completion: error sending request ..."
  /stream disconnected/i,
];
const SERVER_ERROR = [/internal server error/i, /bad gateway/i, /service unavailable/i, /gateway timeout/i, /\bapi_error\b/];
// Claude Code will not skip permission checks as root outside a sandbox (IS_SANDBOX=1).
const ROOT_BYPASS_REFUSED = /cannot be used with root\/sudo privileges/i;
const BILLING = /credit balance is too low|insufficient[_ ]quota|billing/i;
const MODEL_NOT_FOUND = /model[^\n]{0,80}not[_ ]found|not_found_error/i;

const matchesAny = (patterns: readonly RegExp[], text: string): boolean => patterns.some((p) => p.test(text));

function firstLine(text: string | undefined): string | undefined {
  const line = text
    ?.split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return undefined;
  return cutText(line, 300, '…');
}

/** Lower-case, numbers and ids replaced, short: the same failure gives the same key. */
export function normaliseForKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '#')
    .replace(/\b(?:req|msg|toolu)_[a-z0-9]+/g, '#')
    .replace(/\d+/g, '#')
    .replace(/[^a-z#]+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, 8)
    .join('_');
}

function statusClass(status: number): FailureClass | undefined {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 413) return 'context_overflow';
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 408) return 'network';
  if (status === 409 || status >= 500) return 'server_error';
  if (status >= 400) return 'invalid_request';
  return undefined;
}

function apiTypeClass(type: string | undefined): FailureClass | undefined {
  switch (type) {
    case 'rate_limit':
    case 'rate_limit_error':
      return 'rate_limit';
    case 'authentication_failed':
    case 'authentication_error':
    case 'permission_error':
      return 'authentication';
    case 'billing_error':
      return 'invalid_request';
    case 'overloaded':
    case 'overloaded_error':
      return 'overloaded';
    case 'invalid_request':
    case 'invalid_request_error':
      return 'invalid_request';
    case 'server_error':
    case 'api_error':
      return 'server_error';
    // codex's drivers name a dropped connection so (agent/codex/codex-errors.ts).
    case 'network':
      return 'network';
    default:
      return undefined;
  }
}

function textClass(text: string): FailureClass | undefined {
  if (matchesAny(AUTH, text)) return 'authentication';
  if (matchesAny(RATE_LIMIT, text)) return 'rate_limit';
  if (matchesAny(OVERLOADED, text)) return 'overloaded';
  if (matchesAny(NETWORK, text)) return 'network';
  if (matchesAny(SERVER_ERROR, text)) return 'server_error';
  return undefined;
}

interface Verdict {
  cls: FailureClass;
  message: string;
  keyDetail: string;
  status?: number;
}

function apiVerdict({ end }: FailedSession, apiText: string, message: string | undefined): Verdict | undefined {
  const status = end.result?.apiErrorStatus ?? undefined;
  const withStatus = (cls: FailureClass, s: number | undefined): Verdict => ({
    cls,
    message: message ?? `the API answered ${s === undefined ? 'with an error' : `HTTP ${s}`}`,
    keyDetail: `${s ?? 'none'}:${normaliseForKey(message ?? '')}`,
    ...(s === undefined ? {} : { status: s }),
  });
  if (status !== undefined) {
    const cls = statusClass(status);
    if (cls !== undefined) return withStatus(cls, status);
  }
  // With no status the words come before the synthetic error type: the CLI reports a refused
  // connection as error "server_error". Only generic server-error words rank below the type.
  const byText = textClass(apiText);
  if (byText !== undefined && byText !== 'server_error') return withStatus(byText, undefined);
  const byType = apiTypeClass(end.lastApiError?.errorType) ?? byText;
  if (byType !== undefined) return withStatus(byType, undefined);
  const retryStatus = end.lastRetry?.errorStatus;
  if (end.result?.isError === true && retryStatus != null) {
    const cls = statusClass(retryStatus);
    if (cls !== undefined) return withStatus(cls, retryStatus);
  }
  return undefined;
}

/**
 * The words of the API failure. A result that is not an error is the model's own prose, which may
 * well mention "rate limits": it never counts.
 */
function apiErrorWords({ end }: FailedSession, texts: FailureTexts): string {
  const words = [end.result?.isError === true ? texts.result : undefined, texts.apiError];
  return words.filter((t): t is string => t !== undefined && t !== '').join('\n');
}

function decide(session: FailedSession, texts: FailureTexts): Verdict {
  const { end } = session;
  const result = end.result;
  const apiText = apiErrorWords(session, texts);
  const stderr = texts.stderr;
  const message = firstLine(apiText);

  // debussy's own watchdogs ended the session: whatever the process said afterwards is a consequence.
  if (session.stoppedBy === 'timeout') return { cls: 'timeout', message: 'the session reached session_timeout and was stopped', keyDetail: 'session_timeout' };
  if (session.stoppedBy === 'stall') return { cls: 'stall', message: 'the session produced no events for stall_timeout and was ended', keyDetail: 'stall_timeout' };

  if (result?.terminalReason === 'prompt_too_long' || result?.terminalReason === 'blocking_limit' || matchesAny(OVERFLOW, apiText)) {
    const reason = result?.terminalReason === 'blocking_limit' ? 'blocking_limit' : 'prompt_too_long';
    return {
      cls: 'context_overflow',
      message: message ?? (reason === 'blocking_limit' ? 'the conversation passed the CLI blocking limit' : 'the prompt is too long for the model'),
      keyDetail: reason,
      ...(result?.apiErrorStatus == null ? {} : { status: result.apiErrorStatus }),
    };
  }

  if (result?.subtype === 'error_max_turns' || result?.terminalReason === 'max_turns') {
    return { cls: 'turn_limit', message: message ?? 'the session reached its --max-turns limit', keyDetail: 'max_turns' };
  }
  if (result?.subtype === 'error_max_budget_usd') {
    return { cls: 'budget_limit', message: message ?? 'the session reached its --max-budget-usd limit', keyDetail: 'max_budget_usd' };
  }

  const api = apiText !== '' || result?.apiErrorStatus != null || end.lastApiError !== undefined ? apiVerdict(session, apiText, message) : undefined;
  if (api) return api;

  if (end.sawResult && session.refusals.length > 0) {
    return { cls: 'permissions', message: `${describeRefusals(session.refusals.map((refusal) => refusal.summary))}: allow them with permission_mode / allowed_tools`, keyDetail: 'refused' };
  }
  if (!end.sawResult && ROOT_BYPASS_REFUSED.test(stderr)) {
    return { cls: 'permissions', message: `claude refused to start: ${firstLine(stderr) ?? 'it will not skip permission checks as root'}`, keyDetail: 'root_bypass' };
  }

  if (end.signal !== null) {
    return { cls: 'agent_crash', message: `the claude process was killed by ${end.signal}`, keyDetail: `signal:${end.signal}` };
  }
  if (!end.sawResult) {
    if (matchesAny(NETWORK, stderr)) return { cls: 'network', message: firstLine(stderr) ?? 'a network error', keyDetail: `none:${normaliseForKey(firstLine(stderr) ?? '')}` };
    const code = end.exitCode === null ? 'none' : String(end.exitCode);
    const tail = firstLine(stderr);
    return {
      cls: 'agent_crash',
      message: `the claude process exited (code ${code}) without a result${tail === undefined ? '' : `: ${tail}`}`,
      keyDetail: `exit:${code}`,
    };
  }
  const detail = result?.subtype ?? end.outcome;
  return { cls: 'unknown', message: message ?? `the session ended with ${detail}`, keyDetail: normaliseForKey(`${detail} ${message ?? ''}`) };
}

function suggestedActionFor(verdict: Verdict, apiText: string): string {
  if (verdict.cls === 'invalid_request' && BILLING.test(apiText)) {
    return 'The account has no usable credit or quota: add credits or change the API key, then run `debussy run` again.';
  }
  if (verdict.cls === 'invalid_request' && (verdict.status === 404 || MODEL_NOT_FOUND.test(apiText))) {
    return 'The model was not found: fix `model` / fallback_models in .debussy/config.yaml (or --model), then run `debussy run` again.';
  }
  if (verdict.cls === 'permissions' && verdict.keyDetail === 'root_bypass') {
    return 'As root, claude skips permission checks (bypassPermissions, --dangerously-skip-permissions) only with IS_SANDBOX=1 set, inside a sandbox or container; otherwise run debussy as another user or choose permission_mode acceptEdits with allowed_tools (docs/permissions.md).';
  }
  if (verdict.cls === 'authentication' && verdict.status === 403) {
    return 'The API key is not allowed to do this (403): check the key\'s permissions and workspace, then run `debussy run` again.';
  }
  return FAILURE_CLASSES[verdict.cls].suggestedAction;
}

export function classifySessionEnd(session: FailedSession, options: ClassifyOptions = {}): FailureClassification {
  const redact = options.redact ?? ((text: string) => text);
  const { end } = session;
  const texts: FailureTexts = {
    result: end.result?.text === undefined ? undefined : redact(end.result.text),
    apiError: end.lastApiError === undefined ? undefined : redact(end.lastApiError.text),
    stderr: redact(end.stderrTail),
  };
  const verdict = decide(session, texts);
  const info = FAILURE_CLASSES[verdict.cls];
  const apiText = apiErrorWords(session, texts);
  const classification: FailureClassification = {
    class: verdict.cls,
    severity: info.severity,
    retryable: info.retryable,
    ...(verdict.status === undefined ? {} : { status: verdict.status }),
    message: verdict.message,
    suggestedAction: suggestedActionFor(verdict, apiText),
    correlationKey: `${verdict.cls}:${verdict.keyDetail}`,
  };
  if (verdict.cls === 'rate_limit' || verdict.cls === 'overloaded' || verdict.cls === 'server_error') {
    const hint = parseRetryHint(apiText, options.now ?? Date.now());
    const waits = [hint.retryAfterMs, end.lastRetry?.delayMs].filter((n): n is number => n !== undefined && Number.isFinite(n) && n >= 0);
    if (waits.length > 0) classification.retryAfterMs = Math.max(...waits);
    if (hint.resetAt !== undefined) classification.resetAt = hint.resetAt;
  }
  return classification;
}
