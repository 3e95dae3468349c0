import { describe, expect, it } from 'vitest';
import type { ResultEvent, StopCause } from '../../src/agent/index.js';
import { chooseRecovery, classifySessionEnd, countsTowardCircuit, initialRecoveryState, type FailedSession } from '../../src/recovery/index.js';
import { exitCodeOf } from '../../src/errors/index.js';

interface Row {
  end?: Partial<FailedSession['end']>;
  stoppedBy?: StopCause;
  refusals?: string[];
}

const RESULT: ResultEvent = { type: 'result', subtype: 'success', isError: false, text: 'I could not run the tests.', costUsd: 0, inputTokens: 0, outputTokens: 0 };

/** A session that ended by itself with a result (none where a row says sawResult false): each row adds what it is about. */
const ended = (over: Row): FailedSession => {
  const end: FailedSession['end'] = { outcome: 'completed', exitCode: 0, signal: null, sawResult: true, stderrTail: '', ...over.end };
  return {
    end: end.sawResult ? { result: RESULT, ...end } : end,
    stoppedBy: over.stoppedBy,
    refusals: (over.refusals ?? []).map((summary) => ({ summary })),
  };
};

describe('classifying refused tool calls', () => {
  it.each<[string, Row, string, string | undefined]>([
    ['refusals after a normal end', { refusals: ['Bash: npm test', 'Write: src/x.ts', 'Bash: npm test'] }, 'permissions', 'claude refused 3 tool calls (Bash: npm test, Write: src/x.ts): allow them with permission_mode / allowed_tools'],
    ['an API failure explains the end better than refusals', { end: { outcome: 'api_error', result: { type: 'result', subtype: 'success', isError: true, apiErrorStatus: 529, text: 'Overloaded', costUsd: 0, inputTokens: 0, outputTokens: 0 } }, refusals: ['Bash: npm test'] }, 'overloaded', undefined],
    ['a stall is debussy\'s own verdict', { stoppedBy: 'stall', refusals: ['Bash: npm test'] }, 'stall', undefined],
    ['no result: the refusals did not end it', { end: { sawResult: false, exitCode: 1, outcome: 'crashed' }, refusals: ['Bash: npm test'] }, 'agent_crash', undefined],
    [
      'bypass refused as root',
      { end: { sawResult: false, exitCode: 1, outcome: 'crashed', stderrTail: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n' } },
      'permissions',
      'claude refused to start: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
    ],
  ])('%s', (_name, over, cls, message) => {
    const failure = classifySessionEnd(ended(over));
    expect(failure.class).toBe(cls);
    if (message !== undefined) expect(failure.message).toBe(message);
  });

  it('says how to allow them, and the root case says IS_SANDBOX', () => {
    expect(classifySessionEnd(ended({ refusals: ['Bash: make'] })).suggestedAction).toContain('permission_mode / allowed_tools');
    expect(classifySessionEnd(ended({ end: { sawResult: false, exitCode: 1, stderrTail: 'cannot be used with root/sudo privileges' } })).suggestedAction).toContain('IS_SANDBOX=1');
  });

  it('is never retried: the run stops with exit code 7, and it does not trip the circuit breaker', () => {
    const failure = classifySessionEnd(ended({ refusals: ['Bash: npm test'] }));
    const action = chooseRecovery(initialRecoveryState(), failure, {
      model: undefined, fallback_models: ['haiku'], max_retries: 5, allow_skip: true, backoff_base: 1, backoff_max: 1, backoff_jitter: 'full',
      fallback_after: 1, max_rate_limit_waits: 1, max_wait: 1, circuit_max_trips: 1,
    }, { now: 0, random: () => 0.5, sessionId: 's' });
    expect(action).toMatchObject({ kind: 'abort', scope: 'run', exitKind: 'permissions' });
    expect(exitCodeOf('permissions')).toBe(7);
    expect(action.reason).toContain('claude refused 1 tool call (Bash: npm test)');
    expect(countsTowardCircuit('permissions')).toBe(false);
  });
});
