/**
 * gemini's API failures in debussy's failure classes. gemini 0.61.0 reports them only in words: a
 * failed run's `result {status: "error", error: {type: "unknown", message}}` whose message quotes
 * the API's error body ("[API Error: {"error":{"code":400,...}}]") or gemini's own sentence, and
 * retries on stderr ("Attempt 1 failed: ... Retrying after 5283ms..."). Its exit code says little:
 * 144 for any API error (a context overflow as much as a bad key), 173 for an exhausted quota.
 * Pure; measured in test/harness/gemini-errors.test.ts.
 */
import { failureClassOf, kindOfStatus, type AgentError, type AgentErrorKind } from '../agent-errors.js';

const TEXT_KINDS: ReadonlyArray<[RegExp, AgentErrorKind]> = [
  [/exceeds the maximum number of tokens|input token count .*exceeds|context window|too many tokens/i, 'context_overflow'],
  [/check your plan and billing|billing account|insufficient.?quota/i, 'quota'],
  [/exhausted your (?:daily )?quota|quota increase|usage limit/i, 'usage_limit'],
  [/\b429\b|RESOURCE_EXHAUSTED|resource has been exhausted|rate limit|too many requests/i, 'rate_limit'],
  [/API_KEY_INVALID|API key not valid|UNAUTHENTICATED|PERMISSION_DENIED|\b401\b|\b403\b|authenticat/i, 'authentication'],
  [/\b50[34]\b|UNAVAILABLE|overloaded|high demand/i, 'overloaded'],
  [/\b500\b|\bINTERNAL\b|internal error/i, 'server_error'],
  [/fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|socket hang up|network/i, 'network'],
];

/** The HTTP status in the API's error body gemini quotes (`"code":400`). */
export function quotedStatus(text: string): number | undefined {
  const match = /"code"\s*:\s*(\d{3})\b/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/**
 * The class of one gemini error message; its words first, the quoted status when they say nothing.
 * The status is kept only where it means what the words do: Google answers a bad key with 400
 * INVALID_ARGUMENT, and debussy's classification would read that 400 as a bad request.
 */
export function classifyGeminiError(message: string): AgentError {
  const status = quotedStatus(message);
  const byText = TEXT_KINDS.find(([pattern]) => pattern.test(message))?.[1];
  const kind = byText ?? (status === undefined ? 'unknown' : kindOfStatus(status));
  const statusAgrees = status !== undefined && (byText === undefined || kind === 'context_overflow' || failureClassOf(kindOfStatus(status)) === failureClassOf(kind));
  return { kind, failureClass: failureClassOf(kind), ...(statusAgrees ? { httpStatus: status } : {}) };
}

/** gemini's retry notice on stderr: "Attempt 2 failed: <why>. Retrying after 5283ms..." */
export function parseRetryNotice(line: string): { attempt: number; delayMs: number; reason: string } | undefined {
  const match = /Attempt (\d+) failed(?: with status (\d+))?: ([\s\S]*?)\s*Retrying after (\d+)ms/.exec(line);
  if (match === null) return undefined;
  return { attempt: Number(match[1]), delayMs: Number(match[4]), reason: match[3]!.trim() };
}

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  /** The status the notice names or implies (a 429's words), null when none. */
  errorStatus: number | null;
}

/**
 * Reads gemini's stderr as it comes for its retry notices: "Attempt 1 failed: <why>" and
 * "Retrying after 5283ms..." may be lines apart, and a chunk may end mid-line.
 */
export class RetryNoticeReader {
  private line = '';
  private notice: string | undefined;

  feed(chunk: string): RetryNotice[] {
    const lines = (this.line + chunk).split('\n');
    this.line = lines.pop() ?? '';
    const found: RetryNotice[] = [];
    for (const line of lines) {
      if (/^Attempt \d+ failed/.test(line)) this.notice = line;
      else if (this.notice !== undefined && this.notice.length < 4_096) this.notice += `\n${line}`;
      const retry = this.notice === undefined ? undefined : parseRetryNotice(this.notice);
      if (retry === undefined) continue;
      this.notice = undefined;
      const errorStatus = classifyGeminiError(retry.reason).httpStatus ?? (/\b429\b|exhausted|quota/i.test(retry.reason) ? 429 : null);
      found.push({ attempt: retry.attempt, delayMs: retry.delayMs, errorStatus });
    }
    return found;
  }
}
