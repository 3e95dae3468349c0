import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newStreamParseState, parseStreamLine, type ApiErrorEvent, type ApiRetryEvent, type ResultEvent, type SessionOutcome, type StopCause } from '../../src/agent/index.js';
import { classifySessionEnd, FAILURE_CLASSES, normaliseForKey, type FailedSession, type FailureClass } from '../../src/recovery/index.js';

const NOW = Date.UTC(2026, 0, 15, 10, 0, 0);
const streams = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'streams');

/** What a row says of a failed session; everything else is that of a session whose result is an API error. */
interface Row {
  outcome?: SessionOutcome;
  exitCode?: number | null;
  signal?: string | null;
  /** The result line's fields beside an API-error result's, or 'none': no result line was read. */
  result?: Partial<ResultEvent> | 'none';
  apiError?: Pick<ApiErrorEvent, 'errorType' | 'text'>;
  retry?: Partial<ApiRetryEvent>;
  stoppedBy?: StopCause;
  stderrTail?: string;
  refusals?: string[];
}

/** The session runner's report of a failed session, as classifySessionEnd reads it. */
function failed(row: Row): FailedSession {
  const result: ResultEvent | undefined = row.result === 'none' ? undefined : { type: 'result', subtype: 'success', isError: true, costUsd: 0, inputTokens: 0, outputTokens: 0, ...row.result };
  return {
    end: {
      outcome: row.outcome ?? 'api_error',
      exitCode: row.exitCode === undefined ? 1 : row.exitCode,
      signal: row.signal ?? null,
      sawResult: result !== undefined,
      ...(result === undefined ? {} : { result }),
      stderrTail: row.stderrTail ?? '',
      ...(row.apiError === undefined ? {} : { lastApiError: { type: 'api_error', ...row.apiError } }),
      ...(row.retry === undefined ? {} : { lastRetry: { type: 'api_retry', attempt: 1, maxRetries: 10, delayMs: 0, errorStatus: null, ...row.retry } }),
    },
    stoppedBy: row.stoppedBy,
    refusals: (row.refusals ?? []).map((summary) => ({ summary })),
  };
}

/** A recorded stream of the real CLI (rc 1, nothing on stderr) read by the stream parser, as an agent session ends it. */
function fromFixture(version: string, name: string): FailedSession {
  const state = newStreamParseState();
  let result: ResultEvent | undefined;
  let lastApiError: ApiErrorEvent | undefined;
  let lastRetry: ApiRetryEvent | undefined;
  for (const line of readFileSync(path.join(streams, version, `${name}.ndjson`), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    for (const event of parseStreamLine(line, state)) {
      if (event.type === 'result') result = event;
      else if (event.type === 'api_error') lastApiError = event;
      else if (event.type === 'api_retry') lastRetry = event;
    }
  }
  return {
    end: {
      outcome: 'api_error', exitCode: 1, signal: null, sawResult: result !== undefined, stderrTail: '',
      ...(result === undefined ? {} : { result }),
      ...(lastApiError === undefined ? {} : { lastApiError }),
      ...(lastRetry === undefined ? {} : { lastRetry }),
    },
    stoppedBy: undefined,
    refusals: [],
  };
}

describe.each(['2.1.197', '2.1.332'])('classifySessionEnd on streams recorded from the real claude %s', (version) => {
  const cases: Array<{ fixture: string; cls: FailureClass; status?: number; retryAfterMs?: number }> = [
    { fixture: 'prompt-too-long', cls: 'context_overflow', status: 400 },
    { fixture: 'api-error-401', cls: 'authentication', status: 401 },
    { fixture: 'api-error-429-retry', cls: 'rate_limit', status: 429, retryAfterMs: 1000 },
    { fixture: 'api-error-529', cls: 'overloaded', status: 529 },
    // error "server_error" with no status, but the words say the connection was refused.
    { fixture: 'stall-then-server-closed', cls: 'network' },
    { fixture: 'sigint-waiting-for-api', cls: 'unknown' },
  ];
  it.each(cases)('$fixture -> $cls', ({ fixture, cls, status, retryAfterMs }) => {
    const c = classifySessionEnd(fromFixture(version, fixture), { now: NOW });
    expect(c.class).toBe(cls);
    expect(c.status).toBe(status);
    // The CLI's own retry delay: the retry-after's 1000 ms, plus jitter since 2.1.332.
    if (retryAfterMs === undefined) expect(c.retryAfterMs).toBeUndefined();
    else expect(c.retryAfterMs).toSatisfy((ms: number) => ms >= retryAfterMs && ms < retryAfterMs * 1.5);
    expect(c.severity).toBe(FAILURE_CLASSES[cls].severity);
    expect(c.retryable).toBe(FAILURE_CLASSES[cls].retryable);
    expect(c.message.length).toBeGreaterThan(0);
    expect(c.correlationKey.startsWith(`${cls}:`)).toBe(true);
  });
});

describe('classifySessionEnd table', () => {
  const cases: Array<{ name: string; input: FailedSession; cls: FailureClass; status?: number }> = [
    { name: 'terminal_reason prompt_too_long', input: failed({ result: { apiErrorStatus: 400, terminalReason: 'prompt_too_long', text: 'Prompt is too long' } }), cls: 'context_overflow', status: 400 },
    { name: 'blocking limit: no API call at all', input: failed({ result: { apiErrorStatus: null, terminalReason: 'blocking_limit', text: 'Context limit reached · /compact or /clear to continue' } }), cls: 'context_overflow' },
    { name: 'OpenAI maximum context length', input: failed({ result: { apiErrorStatus: 400, text: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens." } }), cls: 'context_overflow', status: 400 },
    { name: 'context_length_exceeded code', input: failed({ result: { apiErrorStatus: 400, text: 'API Error: 400 {"error":{"code":"context_length_exceeded"}}' } }), cls: 'context_overflow', status: 400 },
    { name: 'Gemini input too long', input: failed({ result: { apiErrorStatus: 400, text: 'The input token count exceeds the maximum number of tokens allowed: input is too long' } }), cls: 'context_overflow', status: 400 },
    { name: 'too many tokens', input: failed({ result: { apiErrorStatus: null, text: 'Error: too many tokens in request' } }), cls: 'context_overflow' },
    { name: '413 request too large', input: failed({ result: { apiErrorStatus: 413, text: 'API Error: 413 request_too_large' } }), cls: 'context_overflow', status: 413 },
    { name: '401 invalid x-api-key', input: failed({ result: { apiErrorStatus: 401, text: 'Invalid API key · Fix external API key' }, apiError: { errorType: 'authentication_failed', text: '' } }), cls: 'authentication', status: 401 },
    { name: '403 permission', input: failed({ result: { apiErrorStatus: 403, text: 'API Error: 403 permission_error' } }), cls: 'authentication', status: 403 },
    { name: 'authentication by words only', input: failed({ result: { apiErrorStatus: null, text: 'OAuth token has expired. Please run /login' } }), cls: 'authentication' },
    { name: '429', input: failed({ result: { apiErrorStatus: 429, text: 'API Error: Request rejected (429) · Rate limited' }, apiError: { errorType: 'rate_limit', text: '' } }), cls: 'rate_limit', status: 429 },
    { name: 'usage limit by words', input: failed({ result: { apiErrorStatus: null, text: 'Claude AI usage limit reached|1768478400' } }), cls: 'rate_limit' },
    { name: '529 overloaded', input: failed({ result: { apiErrorStatus: 529, text: 'API Error: 529 Overloaded.' }, apiError: { errorType: 'server_error', text: '' } }), cls: 'overloaded', status: 529 },
    { name: 'overloaded type, no status', input: failed({ result: { apiErrorStatus: null }, apiError: { errorType: 'overloaded', text: 'Overloaded' } }), cls: 'overloaded' },
    { name: '500', input: failed({ result: { apiErrorStatus: 500, text: 'API Error: 500 Internal server error' }, apiError: { errorType: 'server_error', text: '' } }), cls: 'server_error', status: 500 },
    { name: '503', input: failed({ result: { apiErrorStatus: 503, text: 'API Error: 503 Service Unavailable' } }), cls: 'server_error', status: 503 },
    { name: 'server_error type, no status, no words', input: failed({ result: { apiErrorStatus: null, text: 'API Error: something odd' }, apiError: { errorType: 'server_error', text: '' } }), cls: 'server_error' },
    { name: 'a connection dropped (2.1.332)', input: failed({ result: { apiErrorStatus: null, text: 'API Error: Connection dropped mid-request, retrying may help' }, apiError: { errorType: 'unknown', text: '' } }), cls: 'network' },
    { name: 'ECONNRESET', input: failed({ result: { apiErrorStatus: null, text: 'API Error: Connection error. (ECONNRESET)' }, apiError: { errorType: 'server_error', text: '' } }), cls: 'network' },
    { name: 'fetch failed', input: failed({ result: { apiErrorStatus: null, text: 'TypeError: fetch failed' } }), cls: 'network' },
    { name: "codex's stream disconnected (its api_error type network)", input: failed({ result: { apiErrorStatus: null, text: 'stream disconnected before completion: error sending request for url (http://127.0.0.1:1/v1/responses)' }, apiError: { errorType: 'network', text: 'stream disconnected before completion' } }), cls: 'network' },
    { name: 'stream disconnected, by its words alone', input: failed({ result: { apiErrorStatus: null, text: 'stream disconnected before completion' } }), cls: 'network' },
    { name: '408 request timeout', input: failed({ result: { apiErrorStatus: 408, text: 'API Error: 408' } }), cls: 'network', status: 408 },
    { name: 'network error on stderr, no result', input: failed({ outcome: 'crashed', exitCode: 1, stderrTail: 'Error: connect ECONNREFUSED 127.0.0.1:443', result: 'none' }), cls: 'network' },
    { name: '400 invalid request', input: failed({ result: { apiErrorStatus: 400, text: 'API Error: 400 messages.0.content: field required' }, apiError: { errorType: 'invalid_request', text: '' } }), cls: 'invalid_request', status: 400 },
    { name: '404 model not found', input: failed({ result: { apiErrorStatus: 404, text: 'API Error: 404 model: claude-nope not found' } }), cls: 'invalid_request', status: 404 },
    { name: 'stall watchdog wins over the aftermath', input: failed({ outcome: 'killed', stoppedBy: 'stall', signal: 'SIGTERM', exitCode: null, result: 'none' }), cls: 'stall' },
    { name: 'session timeout', input: failed({ outcome: 'stopped', stoppedBy: 'timeout', result: { subtype: 'error_during_execution', terminalReason: 'aborted_tools' } }), cls: 'timeout' },
    { name: 'SIGKILL mid-tool', input: failed({ outcome: 'crashed', signal: 'SIGKILL', exitCode: null, result: 'none' }), cls: 'agent_crash' },
    { name: 'rc 0 without a result line', input: failed({ outcome: 'crashed', exitCode: 0, result: 'none' }), cls: 'agent_crash' },
    { name: 'rc 143 (SIGTERM) without a result', input: failed({ outcome: 'crashed', exitCode: 143, result: 'none' }), cls: 'agent_crash' },
    { name: 'error_max_turns', input: failed({ outcome: 'error', result: { subtype: 'error_max_turns', terminalReason: 'max_turns' } }), cls: 'turn_limit' },
    { name: 'error_max_budget_usd', input: failed({ outcome: 'error', result: { subtype: 'error_max_budget_usd' } }), cls: 'budget_limit' },
    { name: 'error_during_execution, nothing else known', input: failed({ outcome: 'error', result: { subtype: 'error_during_execution' } }), cls: 'unknown' },
    { name: "the model's own prose never classifies", input: failed({ outcome: 'completed', result: { isError: false, apiErrorStatus: null, text: 'I added handling for rate limit errors and 529 overloaded responses.' } }), cls: 'unknown' },
    { name: 'retry status used when the result has none', input: failed({ result: { apiErrorStatus: null, text: 'API Error: gave up' }, retry: { errorStatus: 503 } }), cls: 'server_error', status: 503 },
  ];
  it.each(cases)('$name', ({ input, cls, status }) => {
    const c = classifySessionEnd(input, { now: NOW });
    expect(c.class).toBe(cls);
    expect(c.status).toBe(status);
    expect(c.suggestedAction).toMatch(/\.$/);
  });

  it('names the signal for a killed process, and the exit code otherwise', () => {
    expect(classifySessionEnd(failed({ signal: 'SIGKILL', exitCode: null, result: 'none' })).message).toContain('SIGKILL');
    expect(classifySessionEnd(failed({ exitCode: 137, stderrTail: 'Killed\n', result: 'none' })).message).toMatch(/code 137.*Killed/);
  });

  it('gives specific advice for billing and a missing model', () => {
    const billing = classifySessionEnd(failed({ result: { apiErrorStatus: 400, text: 'Your credit balance is too low to access the Anthropic API.' } }));
    expect(billing.class).toBe('invalid_request');
    expect(billing.suggestedAction).toMatch(/credit/);
    expect(classifySessionEnd(failed({ result: { apiErrorStatus: 404, text: 'not_found_error' } })).suggestedAction).toMatch(/model/);
    expect(classifySessionEnd(failed({ result: { apiErrorStatus: 401 } })).suggestedAction).toMatch(/ANTHROPIC_API_KEY/);
  });
});

describe('retry hints', () => {
  it('takes the retry-after the lead saw and any in the text, whichever is longer', () => {
    expect(classifySessionEnd(failed({ result: { apiErrorStatus: 429 }, retry: { delayMs: 1000 } }), { now: NOW }).retryAfterMs).toBe(1000);
    expect(classifySessionEnd(failed({ result: { apiErrorStatus: 429, text: 'Rate limited. retry-after: 30' }, retry: { delayMs: 1000 } }), { now: NOW }).retryAfterMs).toBe(30_000);
    expect(classifySessionEnd(failed({ result: { apiErrorStatus: 529, text: 'Overloaded, try again in 2 minutes' } }), { now: NOW }).retryAfterMs).toBe(120_000);
  });

  it('reads reset times', () => {
    const epoch = classifySessionEnd(failed({ result: { text: 'Claude AI usage limit reached|1768478400' } }), { now: NOW });
    expect(epoch.resetAt).toBe(1_768_478_400_000);
    const iso = classifySessionEnd(failed({ result: { apiErrorStatus: 429, text: 'Rate limit exceeded; resets at 2026-01-15T11:30:00Z' } }), { now: NOW });
    expect(iso.resetAt).toBe(Date.UTC(2026, 0, 15, 11, 30));
    const clock = classifySessionEnd(failed({ result: { text: "You've hit your limit · resets 3pm (UTC)" } }), { now: NOW });
    expect(clock.class).toBe('rate_limit');
    expect(clock.resetAt).toBe(Date.UTC(2026, 0, 15, 15, 0));
  });

  it('does not attach retry hints to classes that do not wait', () => {
    expect(classifySessionEnd(failed({ result: { apiErrorStatus: 401, text: 'retry-after: 30' } }), { now: NOW }).retryAfterMs).toBeUndefined();
  });
});

describe('correlation keys', () => {
  it('are equal for the same failure across runs (ports, ids and numbers differ)', () => {
    const a = classifySessionEnd(failed({ result: { apiErrorStatus: 529, text: 'API Error: 529 Overloaded. check your inference gateway (127.0.0.1:42253).' } }));
    const b = classifySessionEnd(failed({ result: { apiErrorStatus: 529, text: 'API Error: 529 Overloaded. check your inference gateway (127.0.0.1:51877).' } }));
    expect(a.correlationKey).toBe(b.correlationKey);
    expect(a.correlationKey).toMatch(/^overloaded:529:/);
  });

  it('differ between classes and statuses', () => {
    const keys = new Set([
      classifySessionEnd(failed({ result: { apiErrorStatus: 500, text: 'API Error: 500' } })).correlationKey,
      classifySessionEnd(failed({ result: { apiErrorStatus: 502, text: 'API Error: 502' } })).correlationKey,
      classifySessionEnd(failed({ signal: 'SIGKILL', exitCode: null, result: 'none' })).correlationKey,
      classifySessionEnd(failed({ signal: 'SIGSEGV', exitCode: null, result: 'none' })).correlationKey,
    ]);
    expect(keys.size).toBe(4);
  });

  it('normalise ids and numbers away', () => {
    expect(normaliseForKey('Request req_011CAbc failed after 3 tries (id 5f8e1c2a-1111-2222-3333-444455556666)')).toBe('request_#_failed_after_#_tries_id_#');
  });
});
