/**
 * API failures as codex 0.171.0's app-server reports them: structured `error` notifications
 * (codexErrorInfo, httpStatusCode, willRetry) and a failed turn. Measured against the scripted server.
 */
import { describe, expect, it } from 'vitest';
import { finish, runTurn } from '../support/codex-turn.js';
import { contextOverflowError, quotaError, rateLimitError } from '../support/scripted-responses.js';
import type { ResponsesTurn } from '../support/scripted-responses.js';

type Params = Record<string, unknown>;

async function failedTurn(script: ResponsesTurn[], name: string, retries = 0) {
  const { server, client, completed } = await runTurn(script, 'go', { retries });
  const errors = client.notifications('error').map((n) => n.params);
  const turn = completed.params.turn as Params;
  await finish(client, name);
  return { server, errors, turn };
}

describe('codex app-server errors', () => {
  it('429 with retry-after: codex waits the header out, says it will retry, and the turn then completes', async () => {
    const { server, errors, turn } = await failedTurn([rateLimitError(2), { kind: 'text', text: 'after the wait' }], 'rate-limit-retried', 1);
    const [first, second] = server.responseRequests();
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2_000);
    expect(errors).toEqual([
      expect.objectContaining({
        willRetry: true,
        error: expect.objectContaining({ message: 'Reconnecting... 1/1', codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 429 } } }) as unknown,
      }),
    ]);
    expect(turn).toMatchObject({ status: 'completed', error: null });
  });

  it('429 with no retries left: the turn fails with responseTooManyFailedAttempts and the status; no wait is reported', async () => {
    const { server, errors, turn } = await failedTurn([rateLimitError(30)], 'rate-limit-exhausted');
    expect(server.responseRequests()).toHaveLength(1);
    const error = { message: 'exceeded retry limit, last status: 429 Too Many Requests', codexErrorInfo: { responseTooManyFailedAttempts: { httpStatusCode: 429 } }, additionalDetails: null };
    expect(errors).toEqual([expect.objectContaining({ willRetry: false, error: expect.objectContaining(error) as unknown })]);
    expect(turn).toMatchObject({ status: 'failed', error });
  });

  it.each([
    ['HTTP 400 context_length_exceeded', 'context-overflow', contextOverflowError()],
    ['a response.failed with code context_length_exceeded', 'context-overflow-stream', { kind: 'failed', code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' } as const],
  ])('context overflow (%s): contextWindowExceeded, never retried', async (_label, name, overflow) => {
    const { server, errors, turn } = await failedTurn([overflow], name, 2);
    expect(server.responseRequests()).toHaveLength(1);
    const error = { message: "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.", codexErrorInfo: 'contextWindowExceeded' };
    expect(errors).toEqual([expect.objectContaining({ willRetry: false, error: expect.objectContaining(error) as unknown })]);
    expect(turn).toMatchObject({ status: 'failed', error });
  });

  it.each([
    ['insufficient_quota', 'quota-exceeded', quotaError(), { message: 'Quota exceeded. Check your plan and billing details.', codexErrorInfo: 'usageLimitExceeded' }],
    [
      '401',
      'unauthorized',
      { kind: 'http_error', status: 401, code: 'invalid_api_key', message: 'Incorrect API key provided: sk-scri*********-key.' } as const,
      { message: expect.stringMatching(/^unexpected status 401 Unauthorized: Incorrect API key provided: sk-scri\*+-key\., url: http:\/\/127\.0\.0\.1:\d+\/v1\/responses$/) as unknown, codexErrorInfo: { httpConnectionFailed: { httpStatusCode: 401 } } },
    ],
    [
      '500',
      'server-error',
      { kind: 'http_error', status: 500, type: 'server_error', message: 'The server had an error while processing your request.' } as const,
      // codex shows its own words for a 500, not the server's.
      { message: 'We’re currently experiencing high demand, which may cause temporary errors.', codexErrorInfo: 'internalServerError' },
    ],
    [
      '503',
      'overloaded',
      { kind: 'http_error', status: 503, type: 'server_error', message: 'The engine is currently overloaded, please try again later' } as const,
      { message: expect.stringContaining('unexpected status 503 Service Unavailable: The engine is currently overloaded') as unknown, codexErrorInfo: { httpConnectionFailed: { httpStatusCode: 503 } } },
    ],
  ])('%s with no retries: a failed turn carrying the class', async (_label, name, failure, error) => {
    const { errors, turn } = await failedTurn([failure], name);
    expect(errors).toEqual([expect.objectContaining({ willRetry: false, error: expect.objectContaining(error) as unknown })]);
    expect(turn).toMatchObject({ status: 'failed', error });
  });
});
