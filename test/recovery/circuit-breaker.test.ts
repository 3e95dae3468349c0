import { describe, expect, it } from 'vitest';
import { CircuitBreaker, DEFAULT_CIRCUIT_CONFIG, parseCircuitSnapshot } from '../../src/recovery/index.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const config = { failure_threshold: 3, monitor_window: 60_000, reset_timeout: 30_000, half_open_successes: 2 };

function failTimes(breaker: CircuitBreaker, n: number): ReturnType<CircuitBreaker['recordFailure']>[] {
  return Array.from({ length: n }, () => breaker.recordFailure());
}

describe('CircuitBreaker', () => {
  it('defaults come from the advanced-recovery design: 5 failures / 60 s, 30 s reset, 3 probes', () => {
    expect(DEFAULT_CIRCUIT_CONFIG).toEqual({ failure_threshold: 5, monitor_window: 60_000, reset_timeout: 30_000, half_open_successes: 3 });
    const clock = manualClock();
    const breaker = new CircuitBreaker({}, clock.now);
    failTimes(breaker, 4);
    expect(breaker.status().state).toBe('closed');
    expect(breaker.recordFailure()).toMatchObject({ from: 'closed', to: 'open' });
  });

  it('starts closed and lets sessions run', () => {
    const breaker = new CircuitBreaker(config, manualClock().now);
    expect(breaker.status()).toMatchObject({ state: 'closed', failuresInWindow: 0, trips: 0 });
    expect(breaker.canAttempt()).toBe(true);
  });

  it('opens after failure_threshold failures within the window and says when it tries again', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker(config, clock.now);
    expect(failTimes(breaker, 2)).toEqual([undefined, undefined]);
    clock.advance(10_000);
    const transition = breaker.recordFailure();
    expect(transition).toMatchObject({ from: 'closed', to: 'open', at: clock.now() });
    expect(transition?.reason).toMatch(/3 failures within 60 s; trying again after 30 s/);
    expect(breaker.canAttempt()).toBe(false);
    expect(breaker.status()).toMatchObject({ state: 'open', trips: 1, openedAt: clock.now(), nextAttemptAt: clock.now() + 30_000 });
  });

  it('forgets failures older than the monitor window', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker(config, clock.now);
    failTimes(breaker, 2);
    clock.advance(60_001);
    expect(breaker.status().failuresInWindow).toBe(0);
    expect(breaker.recordFailure()).toBeUndefined();
    expect(breaker.status()).toMatchObject({ state: 'closed', failuresInWindow: 1 });
  });

  it('goes half-open after reset_timeout, closes after half_open_successes', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker(config, clock.now);
    failTimes(breaker, 3);
    clock.advance(29_999);
    expect(breaker.status().state).toBe('open');
    clock.advance(1);
    expect(breaker.status()).toMatchObject({ state: 'half-open', halfOpenSuccesses: 0 });
    expect(breaker.status().nextAttemptAt).toBeUndefined();
    expect(breaker.canAttempt()).toBe(true);
    expect(breaker.recordSuccess()).toBeUndefined();
    expect(breaker.status()).toMatchObject({ state: 'half-open', halfOpenSuccesses: 1 });
    expect(breaker.recordSuccess()).toMatchObject({ from: 'half-open', to: 'closed' });
    expect(breaker.status()).toMatchObject({ state: 'closed', failuresInWindow: 0, trips: 1 });
  });

  it('a failure while half-open opens it again at once', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker(config, clock.now);
    failTimes(breaker, 3);
    clock.advance(30_000);
    breaker.recordSuccess();
    const transition = breaker.recordFailure();
    expect(transition).toMatchObject({ from: 'half-open', to: 'open' });
    expect(breaker.status()).toMatchObject({ state: 'open', trips: 2, nextAttemptAt: clock.now() + 30_000 });
  });

  it('a success while closed changes nothing but the record', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker(config, clock.now);
    breaker.recordFailure();
    expect(breaker.recordSuccess()).toBeUndefined();
    expect(breaker.status()).toMatchObject({ state: 'closed', failuresInWindow: 1, lastSuccessAt: clock.now() });
  });

  it('survives a resume: snapshot through JSON, then the same behaviour', () => {
    const clock = manualClock();
    const breaker = new CircuitBreaker(config, clock.now);
    failTimes(breaker, 3);
    const journaled: unknown = JSON.parse(JSON.stringify(breaker));
    const resumed = CircuitBreaker.fromSnapshot(journaled, config, clock.now);
    expect(resumed.status()).toEqual(breaker.status());
    clock.advance(30_000);
    expect(resumed.status().state).toBe('half-open');
    resumed.recordSuccess();
    resumed.recordSuccess();
    expect(resumed.status().state).toBe('closed');
  });

  it('a malformed snapshot starts closed', () => {
    for (const bad of [null, 'open', { version: 2 }, { version: 1, state: 'open', failures: [], halfOpenSuccesses: 0, trips: 1 }, { version: 1, state: 'weird', failures: [], halfOpenSuccesses: 0, trips: 0 }]) {
      expect(parseCircuitSnapshot(bad)).toBeUndefined();
      expect(CircuitBreaker.fromSnapshot(bad, config, () => 0).status().state).toBe('closed');
    }
  });

  it('reset closes and keeps the trip count', () => {
    const breaker = new CircuitBreaker(config, manualClock().now);
    failTimes(breaker, 3);
    breaker.reset();
    expect(breaker.status()).toMatchObject({ state: 'closed', trips: 1, failuresInWindow: 0 });
  });
});
