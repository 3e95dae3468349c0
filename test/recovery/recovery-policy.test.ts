import { describe, expect, it } from 'vitest';
import {
  afterSessionSuccess,
  chooseRecovery,
  classifySessionEnd,
  FAILURE_CLASSES,
  initialRecoveryState,
  modelFor,
  parseRecoveryState,
  type FailureClass,
  type FailureClassification,
  type RecoveryAction,
  type RecoveryConfig,
  type RecoveryContext,
  type RecoveryState,
} from '../../src/recovery/index.js';

const NOW = 1_800_000_000_000;

const config: RecoveryConfig = {
  model: 'opus',
  fallback_models: ['sonnet', 'haiku'],
  max_retries: 2,
  allow_skip: false,
  backoff_base: 2000,
  backoff_max: 120_000,
  backoff_jitter: 'full',
  fallback_after: 2,
  max_rate_limit_waits: 10,
  max_wait: 6 * 3_600_000,
  circuit_max_trips: 3,
};

const context = (overrides: Partial<RecoveryContext> = {}): RecoveryContext => ({ now: NOW, random: () => 0.5, sessionId: 'sess-1', ...overrides });

function failure(cls: FailureClass, extra: Partial<FailureClassification> = {}): FailureClassification {
  const info = FAILURE_CLASSES[cls];
  return { class: cls, severity: info.severity, retryable: info.retryable, message: `a ${cls}`, suggestedAction: info.suggestedAction, correlationKey: `${cls}:x`, ...extra };
}

const state = (overrides: Partial<RecoveryState> = {}): RecoveryState => ({ ...initialRecoveryState(), ...overrides });

interface Row {
  name: string;
  state?: Partial<RecoveryState>;
  failure: FailureClassification;
  config?: Partial<RecoveryConfig>;
  context?: Partial<RecoveryContext>;
  expected: Partial<RecoveryAction> & { kind: RecoveryAction['kind'] };
  next?: Partial<RecoveryState>;
}

const rows: Row[] = [
  {
    name: 'network: resume the same session, using a retry',
    failure: failure('network'),
    expected: { kind: 'resume', sessionId: 'sess-1', countsAsRetry: true, delayMs: 1000, waitReason: 'backoff', model: 'opus' },
    next: { retries: 1, consecutiveResumes: 1, consecutiveFailures: 1, lastDelayMs: 1000 },
  },
  {
    name: 'stall: resume',
    failure: failure('stall'),
    expected: { kind: 'resume', countsAsRetry: true },
  },
  {
    name: 'server error after two resumes in a row: fresh session',
    state: { retries: 1, consecutiveResumes: 2 },
    failure: failure('server_error', { status: 500 }),
    expected: { kind: 'fresh_session', countsAsRetry: true },
    next: { retries: 2, consecutiveResumes: 0 },
  },
  {
    name: 'no session id to resume: fresh session',
    failure: failure('unknown'),
    context: { sessionId: undefined },
    expected: { kind: 'fresh_session', countsAsRetry: true },
  },
  {
    name: 'rate limit with retry-after: resume after at least that, no retry used',
    failure: failure('rate_limit', { status: 429, retryAfterMs: 45_000 }),
    expected: { kind: 'resume', countsAsRetry: false, delayMs: 45_000, waitReason: 'retry_after', startAt: NOW + 45_000 },
    next: { retries: 0, consecutiveRateLimits: 1 },
  },
  {
    name: 'rate limit even with no retries left: still waits, still no retry used',
    state: { retries: 2 },
    failure: failure('rate_limit', { resetAt: NOW + 3_600_000 }),
    expected: { kind: 'resume', countsAsRetry: false, delayMs: 3_600_000, waitReason: 'reset' },
    next: { retries: 2 },
  },
  {
    name: 'rate limit resetting beyond max_wait: give up on the phase',
    failure: failure('rate_limit', { resetAt: NOW + 7 * 3_600_000 }),
    expected: { kind: 'abort', scope: 'phase', exitKind: 'failed' },
  },
  {
    name: 'rate limited too many times in a row',
    state: { consecutiveRateLimits: 10 },
    failure: failure('rate_limit'),
    expected: { kind: 'abort', scope: 'phase' },
  },
  {
    name: 'first context overflow: condensed by ~25%, no retry used, no wait',
    failure: failure('context_overflow', { status: 400 }),
    expected: { kind: 'condensed_session', level: 1, reduction: 0.25, countsAsRetry: false, delayMs: 0, waitReason: 'none' },
    next: { overflows: 1, retries: 0 },
  },
  {
    name: 'second overflow: level 2 (~40%)',
    state: { overflows: 1 },
    failure: failure('context_overflow'),
    expected: { kind: 'condensed_session', level: 2, reduction: 0.4 },
    next: { overflows: 2 },
  },
  {
    name: 'third overflow: level 3 (~60%) even with no retries left',
    state: { overflows: 2, retries: 2 },
    failure: failure('context_overflow'),
    expected: { kind: 'condensed_session', level: 3, reduction: 0.6 },
  },
  {
    name: 'fourth overflow: give up',
    state: { overflows: 3 },
    failure: failure('context_overflow'),
    expected: { kind: 'abort', scope: 'phase' },
  },
  {
    name: 'fourth overflow with allow_skip: skip the phase',
    state: { overflows: 3 },
    failure: failure('context_overflow'),
    config: { allow_skip: true },
    expected: { kind: 'skip_phase' },
  },
  {
    name: 'first 529: resume after backoff',
    failure: failure('overloaded', { status: 529 }),
    expected: { kind: 'resume', countsAsRetry: true },
    next: { consecutiveOverloads: 1, retries: 1 },
  },
  {
    name: 'second 529 in a row: switch to the first fallback model, no retry used',
    state: { consecutiveOverloads: 1, retries: 1 },
    failure: failure('overloaded', { status: 529 }),
    expected: { kind: 'switch_model', model: 'sonnet', fromModel: 'opus', countsAsRetry: false },
    next: { modelIndex: 1, consecutiveOverloads: 0, retries: 1 },
  },
  {
    name: 'repeated 529 on the first fallback: the next one',
    state: { consecutiveOverloads: 1, modelIndex: 1 },
    failure: failure('overloaded', { status: 529 }),
    expected: { kind: 'switch_model', model: 'haiku', fromModel: 'sonnet' },
    next: { modelIndex: 2 },
  },
  {
    name: 'repeated 529 with no fallback left: resume while retries last',
    state: { consecutiveOverloads: 3, modelIndex: 2 },
    failure: failure('overloaded', { status: 529 }),
    expected: { kind: 'resume', model: 'haiku' },
  },
  {
    name: '529 with retries exhausted but a fallback left: switch at once',
    state: { retries: 2 },
    failure: failure('overloaded', { status: 529 }),
    expected: { kind: 'switch_model', model: 'sonnet' },
  },
  {
    name: 'server error, retries exhausted, fallback left: switch model',
    state: { retries: 2 },
    failure: failure('server_error', { status: 500 }),
    expected: { kind: 'switch_model', model: 'sonnet' },
  },
  {
    name: 'network error, retries exhausted: abort the phase',
    state: { retries: 2 },
    failure: failure('network'),
    expected: { kind: 'abort', scope: 'phase', exitKind: 'failed' },
  },
  {
    name: 'agent crash: fresh session from the checkpoint, never --resume',
    failure: failure('agent_crash'),
    expected: { kind: 'fresh_session', countsAsRetry: true },
  },
  {
    name: 'agent crash in a crash loop: stop restarting',
    failure: failure('agent_crash'),
    context: { crashLoop: { looping: true, crashesInWindow: 4, windowMs: 600_000 } },
    expected: { kind: 'abort', scope: 'phase', exitKind: 'circuitOpen' },
  },
  {
    name: 'crash loop with allow_skip: skip',
    failure: failure('agent_crash'),
    config: { allow_skip: true },
    context: { crashLoop: { looping: true, crashesInWindow: 4, windowMs: 600_000 } },
    expected: { kind: 'skip_phase' },
  },
  {
    name: 'session timeout: fresh session',
    failure: failure('timeout'),
    expected: { kind: 'fresh_session' },
  },
  {
    name: 'turn limit: fresh session',
    failure: failure('turn_limit'),
    expected: { kind: 'fresh_session' },
  },
  {
    name: 'budget limit: not retried, the phase fails',
    failure: failure('budget_limit'),
    expected: { kind: 'abort', scope: 'phase' },
  },
  {
    name: 'authentication: the run stops at once, even with budgets and allow_skip',
    failure: failure('authentication', { status: 401 }),
    config: { allow_skip: true },
    expected: { kind: 'abort', scope: 'run', exitKind: 'prerequisites' },
  },
  {
    name: 'invalid request: the run stops at once',
    failure: failure('invalid_request', { status: 400 }),
    expected: { kind: 'abort', scope: 'run', exitKind: 'failed' },
  },
  {
    name: 'open circuit: the session waits until it half-opens',
    failure: failure('network'),
    context: { circuit: { state: 'open', nextAttemptAt: NOW + 30_000, trips: 1 } },
    expected: { kind: 'resume', delayMs: 30_000, waitReason: 'circuit', startAt: NOW + 30_000 },
  },
  {
    name: 'open circuit, rate-limit wait already longer: the longer wait stands',
    failure: failure('rate_limit', { retryAfterMs: 90_000 }),
    context: { circuit: { state: 'open', nextAttemptAt: NOW + 30_000, trips: 1 } },
    expected: { kind: 'resume', delayMs: 90_000, waitReason: 'retry_after' },
  },
  {
    name: 'circuit opened more than circuit_max_trips times: the run stops',
    failure: failure('server_error'),
    context: { circuit: { state: 'open', nextAttemptAt: NOW + 30_000, trips: 4 } },
    expected: { kind: 'abort', scope: 'run', exitKind: 'circuitOpen' },
  },
];

describe('chooseRecovery', () => {
  it.each(rows)('$name', (row) => {
    const action = chooseRecovery(state(row.state), row.failure, { ...config, ...row.config }, context(row.context));
    expect(action).toMatchObject(row.expected);
    if (row.next) expect(action.nextState).toMatchObject(row.next);
    expect(action.reason).toContain(row.failure.message);
  });

  it('says how long it waits and why', () => {
    const action = chooseRecovery(state(), failure('rate_limit', { retryAfterMs: 45_000 }), config, context());
    expect(action.reason).toMatch(/in 45 s \(retry-after\)/);
    const circuit = chooseRecovery(state(), failure('network'), config, context({ circuit: { state: 'open', nextAttemptAt: NOW + 30_000, trips: 1 } }));
    expect(circuit.reason).toMatch(/circuit breaker open/);
  });

  it('never retries an authentication failure, however many budgets are left', () => {
    const result = { type: 'result', subtype: 'success', isError: true, apiErrorStatus: 401, text: 'Invalid API key · Fix external API key', costUsd: 0, inputTokens: 0, outputTokens: 0 } as const;
    const real = classifySessionEnd({ end: { outcome: 'api_error', exitCode: 1, signal: null, sawResult: true, result, stderrTail: '' }, stoppedBy: undefined, refusals: [] });
    const action = chooseRecovery(initialRecoveryState(), real, config, context());
    expect(action.kind).toBe('abort');
    if (action.kind === 'abort') expect(action.hint).toMatch(/API key|ANTHROPIC_API_KEY/);
  });

  it('a run of rate limits then success uses no retry at all', () => {
    let s = initialRecoveryState();
    for (let i = 0; i < 5; i += 1) {
      const action = chooseRecovery(s, failure('rate_limit', { retryAfterMs: 1000 }), config, context());
      expect(action.kind).toBe('resume');
      s = action.nextState;
    }
    expect(s.retries).toBe(0);
    s = afterSessionSuccess(s);
    expect(s).toMatchObject({ retries: 0, consecutiveRateLimits: 0, consecutiveFailures: 0 });
  });

  it('backoff grows with consecutive failures (seeded randomness at its top)', () => {
    const top = context({ random: () => 0.999_999, sessionId: undefined });
    const first = chooseRecovery(state(), failure('unknown'), { ...config, max_retries: 5 }, top);
    const second = chooseRecovery(first.nextState, failure('unknown'), { ...config, max_retries: 5 }, top);
    expect(first.kind === 'fresh_session' && second.kind === 'fresh_session').toBe(true);
    if (first.kind === 'fresh_session' && second.kind === 'fresh_session') {
      expect(first.delayMs).toBe(2000);
      expect(second.delayMs).toBe(4000);
    }
  });
});

describe('recovery state', () => {
  it('picks the model by index', () => {
    expect(modelFor(state(), config)).toBe('opus');
    expect(modelFor(state({ modelIndex: 2 }), config)).toBe('haiku');
    expect(modelFor(state({ modelIndex: 9 }), config)).toBe('haiku');
    expect(modelFor(state(), { model: undefined, fallback_models: [] })).toBeUndefined();
  });

  it('round-trips through JSON and rejects malformed input', () => {
    const s = state({ retries: 1, overflows: 2, modelIndex: 1, lastDelayMs: 1234 });
    expect(parseRecoveryState(JSON.parse(JSON.stringify(s)))).toEqual(s);
    expect(parseRecoveryState({ ...s, retries: -1 })).toBeUndefined();
    expect(parseRecoveryState({ retries: 1 })).toBeUndefined();
    expect(parseRecoveryState('x')).toBeUndefined();
  });

  it('after a good session: streaks reset, budgets and model stay', () => {
    expect(afterSessionSuccess(state({ retries: 2, overflows: 1, modelIndex: 1, consecutiveOverloads: 2, consecutiveResumes: 1, consecutiveFailures: 3, lastDelayMs: 9 }))).toEqual(
      state({ retries: 2, overflows: 1, modelIndex: 1 }),
    );
  });
});
