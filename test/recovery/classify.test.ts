import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifySessionEnd, FAILURE_CLASSES, normaliseForKey, type FailureClass, type SessionFailureInput } from '../../src/recovery/index.js';

const NOW = Date.UTC(2026, 0, 15, 10, 0, 0);
const streams = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'streams');

/** A session end with nothing notable: each case overrides what it is about. */
function end(overrides: Partial<SessionFailureInput>): SessionFailureInput {
  return { outcome: 'api_error', exitCode: 1, signal: null, sawResult: true, resultSubtype: 'success', resultIsError: true, stalled: false, timedOut: false, ...overrides };
}

/** What the lead's mapping makes of a recorded stream of the real CLI (rc 1, nothing on stderr). */
function fromFixture(name: string): SessionFailureInput {
  const input: SessionFailureInput = { outcome: 'api_error', exitCode: 1, signal: null, sawResult: false, stalled: false, timedOut: false, stderrTail: '' };
  for (const line of readFileSync(path.join(streams, `${name}.ndjson`), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as Record<string, unknown>;
    if (event.type === 'assistant' && typeof event.error === 'string') {
      const message = event.message as { content?: Array<{ text?: string }> };
      input.apiErrorType = event.error;
      input.apiErrorText = message.content?.[0]?.text;
    }
    if (event.type === 'system' && event.subtype === 'api_retry') {
      input.lastRetryStatus = event.error_status as number | null;
      input.retryAfterMs = event.retry_delay_ms as number;
    }
    if (event.type === 'result') {
      input.sawResult = true;
      input.resultSubtype = event.subtype as string;
      input.resultIsError = event.is_error as boolean;
      input.apiErrorStatus = (event.api_error_status as number | null | undefined) ?? null;
      if (typeof event.result === 'string') input.resultText = event.result;
      if (typeof event.terminal_reason === 'string') input.terminalReason = event.terminal_reason;
    }
  }
  return input;
}

describe('classifySessionEnd on recorded real-CLI streams', () => {
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
    const c = classifySessionEnd(fromFixture(fixture), { now: NOW });
    expect(c.class).toBe(cls);
    expect(c.status).toBe(status);
    expect(c.retryAfterMs).toBe(retryAfterMs);
    expect(c.severity).toBe(FAILURE_CLASSES[cls].severity);
    expect(c.retryable).toBe(FAILURE_CLASSES[cls].retryable);
    expect(c.message.length).toBeGreaterThan(0);
    expect(c.correlationKey.startsWith(`${cls}:`)).toBe(true);
  });
});

describe('classifySessionEnd table', () => {
  const cases: Array<{ name: string; input: SessionFailureInput; cls: FailureClass; status?: number }> = [
    { name: 'terminal_reason prompt_too_long', input: end({ apiErrorStatus: 400, terminalReason: 'prompt_too_long', resultText: 'Prompt is too long' }), cls: 'context_overflow', status: 400 },
    { name: 'blocking limit: no API call at all', input: end({ apiErrorStatus: null, terminalReason: 'blocking_limit', resultText: 'Context limit reached · /compact or /clear to continue' }), cls: 'context_overflow' },
    { name: 'OpenAI maximum context length', input: end({ apiErrorStatus: 400, resultText: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens." }), cls: 'context_overflow', status: 400 },
    { name: 'context_length_exceeded code', input: end({ apiErrorStatus: 400, resultText: 'API Error: 400 {"error":{"code":"context_length_exceeded"}}' }), cls: 'context_overflow', status: 400 },
    { name: 'Gemini input too long', input: end({ apiErrorStatus: 400, resultText: 'The input token count exceeds the maximum number of tokens allowed: input is too long' }), cls: 'context_overflow', status: 400 },
    { name: 'too many tokens', input: end({ apiErrorStatus: null, resultText: 'Error: too many tokens in request' }), cls: 'context_overflow' },
    { name: '413 request too large', input: end({ apiErrorStatus: 413, resultText: 'API Error: 413 request_too_large' }), cls: 'context_overflow', status: 413 },
    { name: '401 invalid x-api-key', input: end({ apiErrorStatus: 401, apiErrorType: 'authentication_failed', resultText: 'Invalid API key · Fix external API key' }), cls: 'authentication', status: 401 },
    { name: '403 permission', input: end({ apiErrorStatus: 403, resultText: 'API Error: 403 permission_error' }), cls: 'authentication', status: 403 },
    { name: 'authentication by words only', input: end({ apiErrorStatus: null, resultText: 'OAuth token has expired. Please run /login' }), cls: 'authentication' },
    { name: '429', input: end({ apiErrorStatus: 429, apiErrorType: 'rate_limit', resultText: 'API Error: Request rejected (429) · Rate limited' }), cls: 'rate_limit', status: 429 },
    { name: 'usage limit by words', input: end({ apiErrorStatus: null, resultText: 'Claude AI usage limit reached|1768478400' }), cls: 'rate_limit' },
    { name: '529 overloaded', input: end({ apiErrorStatus: 529, apiErrorType: 'server_error', resultText: 'API Error: 529 Overloaded.' }), cls: 'overloaded', status: 529 },
    { name: 'overloaded type, no status', input: end({ apiErrorStatus: null, apiErrorType: 'overloaded', apiErrorText: 'Overloaded' }), cls: 'overloaded' },
    { name: '500', input: end({ apiErrorStatus: 500, apiErrorType: 'server_error', resultText: 'API Error: 500 Internal server error' }), cls: 'server_error', status: 500 },
    { name: '503', input: end({ apiErrorStatus: 503, resultText: 'API Error: 503 Service Unavailable' }), cls: 'server_error', status: 503 },
    { name: 'server_error type, no status, no words', input: end({ apiErrorStatus: null, apiErrorType: 'server_error', resultText: 'API Error: something odd' }), cls: 'server_error' },
    { name: 'ECONNRESET', input: end({ apiErrorStatus: null, apiErrorType: 'server_error', resultText: 'API Error: Connection error. (ECONNRESET)' }), cls: 'network' },
    { name: 'fetch failed', input: end({ apiErrorStatus: null, resultText: 'TypeError: fetch failed' }), cls: 'network' },
    { name: '408 request timeout', input: end({ apiErrorStatus: 408, resultText: 'API Error: 408' }), cls: 'network', status: 408 },
    { name: 'network error on stderr, no result', input: end({ outcome: 'crashed', sawResult: false, resultSubtype: undefined, resultIsError: undefined, exitCode: 1, stderrTail: 'Error: connect ECONNREFUSED 127.0.0.1:443' }), cls: 'network' },
    { name: '400 invalid request', input: end({ apiErrorStatus: 400, apiErrorType: 'invalid_request', resultText: 'API Error: 400 messages.0.content: field required' }), cls: 'invalid_request', status: 400 },
    { name: '404 model not found', input: end({ apiErrorStatus: 404, resultText: 'API Error: 404 model: claude-nope not found' }), cls: 'invalid_request', status: 404 },
    { name: 'stall watchdog wins over the aftermath', input: end({ outcome: 'killed', stalled: true, sawResult: false, signal: 'SIGTERM', exitCode: null }), cls: 'stall' },
    { name: 'session timeout', input: end({ outcome: 'stopped', timedOut: true, resultSubtype: 'error_during_execution', terminalReason: 'aborted_tools' }), cls: 'timeout' },
    { name: 'SIGKILL mid-tool', input: end({ outcome: 'crashed', sawResult: false, signal: 'SIGKILL', exitCode: null, resultSubtype: undefined, resultIsError: undefined }), cls: 'agent_crash' },
    { name: 'rc 0 without a result line', input: end({ outcome: 'crashed', sawResult: false, exitCode: 0, resultSubtype: undefined, resultIsError: undefined }), cls: 'agent_crash' },
    { name: 'rc 143 (SIGTERM) without a result', input: end({ outcome: 'crashed', sawResult: false, exitCode: 143, resultSubtype: undefined, resultIsError: undefined }), cls: 'agent_crash' },
    { name: 'error_max_turns', input: end({ outcome: 'error', resultSubtype: 'error_max_turns', terminalReason: 'max_turns' }), cls: 'turn_limit' },
    { name: 'error_max_budget_usd', input: end({ outcome: 'error', resultSubtype: 'error_max_budget_usd' }), cls: 'budget_limit' },
    { name: 'error_during_execution, nothing else known', input: end({ outcome: 'error', resultSubtype: 'error_during_execution' }), cls: 'unknown' },
    { name: "the model's own prose never classifies", input: end({ outcome: 'completed', resultIsError: false, apiErrorStatus: null, resultText: 'I added handling for rate limit errors and 529 overloaded responses.' }), cls: 'unknown' },
    { name: 'retry status used when the result has none', input: end({ apiErrorStatus: null, resultText: 'API Error: gave up', lastRetryStatus: 503 }), cls: 'server_error', status: 503 },
  ];
  it.each(cases)('$name', ({ input, cls, status }) => {
    const c = classifySessionEnd(input, { now: NOW });
    expect(c.class).toBe(cls);
    expect(c.status).toBe(status);
    expect(c.suggestedAction).toMatch(/\.$/);
  });

  it('names the signal for a killed process, and the exit code otherwise', () => {
    expect(classifySessionEnd(end({ sawResult: false, signal: 'SIGKILL', exitCode: null })).message).toContain('SIGKILL');
    expect(classifySessionEnd(end({ sawResult: false, exitCode: 137, stderrTail: 'Killed\n' })).message).toMatch(/code 137.*Killed/);
  });

  it('gives specific advice for billing and a missing model', () => {
    const billing = classifySessionEnd(end({ apiErrorStatus: 400, resultText: 'Your credit balance is too low to access the Anthropic API.' }));
    expect(billing.class).toBe('invalid_request');
    expect(billing.suggestedAction).toMatch(/credit/);
    expect(classifySessionEnd(end({ apiErrorStatus: 404, resultText: 'not_found_error' })).suggestedAction).toMatch(/model/);
    expect(classifySessionEnd(end({ apiErrorStatus: 401 })).suggestedAction).toMatch(/ANTHROPIC_API_KEY/);
  });
});

describe('retry hints', () => {
  it('takes the retry-after the lead saw and any in the text, whichever is longer', () => {
    expect(classifySessionEnd(end({ apiErrorStatus: 429, retryAfterMs: 1000 }), { now: NOW }).retryAfterMs).toBe(1000);
    expect(classifySessionEnd(end({ apiErrorStatus: 429, resultText: 'Rate limited. retry-after: 30', retryAfterMs: 1000 }), { now: NOW }).retryAfterMs).toBe(30_000);
    expect(classifySessionEnd(end({ apiErrorStatus: 529, resultText: 'Overloaded, try again in 2 minutes' }), { now: NOW }).retryAfterMs).toBe(120_000);
  });

  it('reads reset times', () => {
    const epoch = classifySessionEnd(end({ resultText: 'Claude AI usage limit reached|1768478400' }), { now: NOW });
    expect(epoch.resetAt).toBe(1_768_478_400_000);
    const iso = classifySessionEnd(end({ apiErrorStatus: 429, resultText: 'Rate limit exceeded; resets at 2026-01-15T11:30:00Z' }), { now: NOW });
    expect(iso.resetAt).toBe(Date.UTC(2026, 0, 15, 11, 30));
    const clock = classifySessionEnd(end({ resultText: "You've hit your limit · resets 3pm (UTC)" }), { now: NOW });
    expect(clock.class).toBe('rate_limit');
    expect(clock.resetAt).toBe(Date.UTC(2026, 0, 15, 15, 0));
  });

  it('does not attach retry hints to classes that do not wait', () => {
    expect(classifySessionEnd(end({ apiErrorStatus: 401, resultText: 'retry-after: 30' }), { now: NOW }).retryAfterMs).toBeUndefined();
  });
});

describe('correlation keys', () => {
  it('are equal for the same failure across runs (ports, ids and numbers differ)', () => {
    const a = classifySessionEnd(end({ apiErrorStatus: 529, resultText: 'API Error: 529 Overloaded. check your inference gateway (127.0.0.1:42253).' }));
    const b = classifySessionEnd(end({ apiErrorStatus: 529, resultText: 'API Error: 529 Overloaded. check your inference gateway (127.0.0.1:51877).' }));
    expect(a.correlationKey).toBe(b.correlationKey);
    expect(a.correlationKey).toMatch(/^overloaded:529:/);
  });

  it('differ between classes and statuses', () => {
    const keys = new Set([
      classifySessionEnd(end({ apiErrorStatus: 500, resultText: 'API Error: 500' })).correlationKey,
      classifySessionEnd(end({ apiErrorStatus: 502, resultText: 'API Error: 502' })).correlationKey,
      classifySessionEnd(end({ sawResult: false, signal: 'SIGKILL', exitCode: null })).correlationKey,
      classifySessionEnd(end({ sawResult: false, signal: 'SIGSEGV', exitCode: null })).correlationKey,
    ]);
    expect(keys.size).toBe(4);
  });

  it('normalise ids and numbers away', () => {
    expect(normaliseForKey('Request req_011CAbc failed after 3 tries (id 5f8e1c2a-1111-2222-3333-444455556666)')).toBe('request_#_failed_after_#_tries_id_#');
  });
});
