import { describe, expect, it } from 'vitest';
import { apiErrorType, classifyCodexError, kindOfStatus, kindOfText, parseReconnecting } from '../../../src/agent/codex/codex-errors.js';
import { camelKeys } from '../../../src/agent/codex/rollout-events.js';
import type { CodexFailureClass } from '../../../src/agent/codex/codex-errors.js';
import { isFailureClass, type FailureClass } from '../../../src/recovery/failure-class.js';

// Every class the codex classifier names is one of debussy's (checked by the compiler and at run time).
const asFailureClass = (name: CodexFailureClass): FailureClass => name;

describe('classifyCodexError: codexErrorInfo first', () => {
  it.each([
    ['contextWindowExceeded', '', 'context_overflow', 'context_overflow', undefined],
    ['usageLimitExceeded', 'Quota exceeded. Check your plan and billing details.', 'quota', 'invalid_request', undefined],
    ['usageLimitExceeded', "You've hit your usage limit. Try again at 3:05 PM.", 'usage_limit', 'rate_limit', undefined],
    ['rateLimitExceeded', '', 'rate_limit', 'rate_limit', undefined],
    ['serverOverloaded', '', 'overloaded', 'overloaded', undefined],
    ['internalServerError', 'We’re currently experiencing high demand, which may cause temporary errors.', 'server_error', 'server_error', undefined],
    ['unauthorized', '', 'authentication', 'authentication', undefined],
    ['badRequest', '', 'invalid_request', 'invalid_request', undefined],
    ['modelNotFound', '', 'invalid_request', 'invalid_request', undefined],
    ['sessionBudgetExceeded', '', 'budget_limit', 'budget_limit', undefined],
    ['cyberPolicy', '', 'policy', 'invalid_request', undefined],
    ['sandboxError', '', 'agent_crash', 'agent_crash', undefined],
    [{ responseTooManyFailedAttempts: { httpStatusCode: 429 } }, 'exceeded retry limit, last status: 429 Too Many Requests', 'rate_limit', 'rate_limit', 429],
    [{ httpConnectionFailed: { httpStatusCode: 401 } }, 'unexpected status 401 Unauthorized', 'authentication', 'authentication', 401],
    [{ httpConnectionFailed: { httpStatusCode: 503 } }, '', 'overloaded', 'overloaded', 503],
    [{ httpConnectionFailed: { httpStatusCode: 500 } }, '', 'server_error', 'server_error', 500],
    [{ httpConnectionFailed: { httpStatusCode: 404 } }, '', 'invalid_request', 'invalid_request', 404],
    [{ responseStreamDisconnected: { httpStatusCode: null } }, 'stream disconnected before completion', 'network', 'network', undefined],
  ] as const)('%j %j -> %s (%s)', (info, message, kind, failureClass, status) => {
    expect(classifyCodexError({ message, codexErrorInfo: info })).toEqual({ kind, failureClass, ...(status === undefined ? {} : { httpStatus: status }) });
  });

  it('falls back to the words when the info says nothing ("other", unknown, absent)', () => {
    expect(classifyCodexError({ message: "Codex ran out of room in the model's context window.", codexErrorInfo: 'other' }).kind).toBe('context_overflow');
    expect(classifyCodexError({ message: 'Reconnecting... 2/5', additionalDetails: 'exceeded retry limit, last status: 429 Too Many Requests' }).kind).toBe('rate_limit');
    expect(classifyCodexError({ message: 'something new', codexErrorInfo: { brandNewVariant: {} } }).kind).toBe('unknown');
    expect(classifyCodexError({}).failureClass).toBe('unknown');
  });
});

describe('kindOfText (exec --json and the rollout: errors as text only)', () => {
  it.each([
    ["Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.", 'context_overflow'],
    ['Quota exceeded. Check your plan and billing details.', 'quota'],
    ['Reconnecting... 1/1 (unexpected status 429 Too Many Requests: Rate limit reached)', 'rate_limit'],
    ['unexpected status 401 Unauthorized: Incorrect API key provided', 'authentication'],
    ['unexpected status 503 Service Unavailable: The engine is currently overloaded', 'overloaded'],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'overloaded'],
    ['stream disconnected before completion: error sending request', 'network'],
    ['the moon is made of cheese', 'unknown'],
  ] as const)('%s -> %s', (text, kind) => {
    expect(kindOfText(text)).toBe(kind);
  });
});

describe("the classifier's classes are debussy's", () => {
  it.each(['context_overflow', 'rate_limit', 'overloaded', 'server_error', 'network', 'authentication', 'invalid_request', 'budget_limit', 'permissions', 'agent_crash', 'unknown'] as const)('%s', (name) => {
    expect(isFailureClass(asFailureClass(name))).toBe(true);
  });
});

describe('small readers', () => {
  it('kindOfStatus', () => {
    expect([429, 401, 403, 413, 408, 500, 502, 503, 529, 400, 422, 200].map(kindOfStatus)).toEqual([
      'rate_limit', 'authentication', 'authentication', 'context_overflow', 'network', 'server_error', 'overloaded', 'overloaded', 'overloaded', 'invalid_request', 'invalid_request', 'unknown',
    ]);
  });

  it('parseReconnecting reads "Reconnecting... N/M"', () => {
    expect(parseReconnecting('Reconnecting... 2/5')).toEqual({ attempt: 2, maxRetries: 5 });
    expect(parseReconnecting('Reconnecting... 1/1 (stream disconnected)')).toEqual({ attempt: 1, maxRetries: 1 });
    expect(parseReconnecting('Reconnecting')).toBeUndefined();
  });

  it.each([
    ['rate_limit', 'rate_limit'],
    ['usage_limit', 'rate_limit'],
    ['quota', 'billing_error'],
    ['overloaded', 'overloaded'],
    ['server_error', 'server_error'],
    ['authentication', 'authentication_failed'],
    ['context_overflow', 'invalid_request'],
    ['policy', 'invalid_request'],
    ['network', 'network'],
  ] as const)("apiErrorType(%s) = %s (the API error type names classify.ts reads)", (kind, type) => {
    expect(apiErrorType(kind)).toBe(type);
  });

  it("camelKeys turns the rollout's snake_case error info into the app-server's", () => {
    expect(camelKeys('context_window_exceeded')).toBe('contextWindowExceeded');
    expect(camelKeys({ http_connection_failed: { http_status_code: 401 } })).toEqual({ httpConnectionFailed: { httpStatusCode: 401 } });
  });
});
