import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffDelay, computeWait, earliestRetryAt, parseRetryHint, seededRandom, type BackoffOptions } from '../../src/recovery/index.js';

const full: BackoffOptions = { baseMs: 1000, maxMs: 30_000, jitter: 'full' };
const decorrelated: BackoffOptions = { ...full, jitter: 'decorrelated' };
const fixed = (value: number) => () => value;

describe('backoff', () => {
  it.each([
    [1, 1000],
    [2, 2000],
    [3, 4000],
    [5, 16_000],
    [6, 30_000],
    [60, 30_000],
    [2000, 30_000],
  ])('ceiling of attempt %i is %i ms', (attempt, ceiling) => {
    expect(backoffCeiling(attempt, full)).toBe(ceiling);
  });

  it('full jitter spans [0, ceiling]', () => {
    expect(backoffDelay(3, full, fixed(0))).toBe(0);
    expect(backoffDelay(3, full, fixed(0.5))).toBe(2000);
    expect(backoffDelay(3, full, fixed(0.999_999))).toBe(4000);
  });

  it('decorrelated jitter grows from the previous delay and respects the cap', () => {
    expect(backoffDelay(1, decorrelated, fixed(0))).toBe(1000);
    expect(backoffDelay(2, decorrelated, fixed(1), 4000)).toBe(12_000);
    expect(backoffDelay(9, decorrelated, fixed(1), 25_000)).toBe(30_000);
  });

  it('clamps a random source that strays out of [0, 1)', () => {
    expect(backoffDelay(2, full, fixed(7))).toBe(2000);
    expect(backoffDelay(2, full, fixed(-1))).toBe(0);
    expect(backoffDelay(2, full, fixed(Number.NaN))).toBe(0);
  });

  it('a seeded source is reproducible and stays within bounds', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const delays = Array.from({ length: 50 }, (_, i) => backoffDelay(i + 1, full, a));
    expect(Array.from({ length: 50 }, (_, i) => backoffDelay(i + 1, full, b))).toEqual(delays);
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(backoffCeiling(i + 1, full));
    });
    expect(new Set(delays).size).toBeGreaterThan(10);
    expect(seededRandom(1)()).not.toBe(seededRandom(2)());
  });
});

describe('computeWait', () => {
  const now = 1_000_000;
  it('uses the backoff when nothing else is asked', () => {
    expect(computeWait({ attempt: 2, now }, full, fixed(0.5))).toEqual({ delayMs: 1000, reason: 'backoff', until: now + 1000 });
  });
  it('waits at least the retry-after, even beyond the cap', () => {
    expect(computeWait({ attempt: 1, now, retryAfterMs: 45_000 }, full, fixed(0.5))).toEqual({ delayMs: 45_000, reason: 'retry_after', until: now + 45_000 });
  });
  it('keeps a longer backoff over a shorter retry-after', () => {
    expect(computeWait({ attempt: 5, now, retryAfterMs: 1000 }, full, fixed(1))).toMatchObject({ delayMs: 16_000, reason: 'backoff' });
  });
  it('waits until a reset time', () => {
    expect(computeWait({ attempt: 1, now, retryAfterMs: 5000, resetAt: now + 600_000 }, full, fixed(0))).toEqual({ delayMs: 600_000, reason: 'reset', until: now + 600_000 });
  });
  it('ignores a reset time in the past', () => {
    expect(computeWait({ attempt: 1, now, resetAt: now - 10 }, full, fixed(0))).toMatchObject({ delayMs: 0, reason: 'backoff' });
  });
});

describe('parseRetryHint', () => {
  const now = Date.UTC(2026, 0, 15, 22, 30, 0);
  it.each([
    ['retry-after: 30', { retryAfterMs: 30_000 }],
    ['Retry-After=2', { retryAfterMs: 2000 }],
    ['{"retry_after": 7}', { retryAfterMs: 7000 }],
    ['retry after 1500ms', { retryAfterMs: 1500 }],
    ['please try again in 2 minutes', { retryAfterMs: 120_000 }],
    ['try again in 1.5 hours', { retryAfterMs: 5_400_000 }],
    ['limit resets in 90 seconds', { retryAfterMs: 90_000 }],
    ['Claude AI usage limit reached|1768478400', { resetAt: 1_768_478_400_000 }],
    ['resets at 2026-01-16T01:00:00Z', { resetAt: Date.UTC(2026, 0, 16, 1, 0) }],
    // 22:30 UTC now; 3am UTC is tomorrow.
    ['resets 3am (UTC)', { resetAt: Date.UTC(2026, 0, 16, 3, 0) }],
    // Tokyo is UTC+9: it is 07:30 there, 5pm Tokyo is 08:00 UTC today.
    ['resets 5pm (Asia/Tokyo)', { resetAt: Date.UTC(2026, 0, 16, 8, 0) }],
    ['resets at 23:15 (UTC)', { resetAt: Date.UTC(2026, 0, 15, 23, 15) }],
    ['try again in a moment', {}],
    ['resets 5', {}],
    ['resets 13pm (UTC)', {}],
    ['', {}],
  ])('%s', (text, hint) => {
    expect(parseRetryHint(text, now)).toEqual(hint);
  });

  it('gives the earliest start time', () => {
    expect(earliestRetryAt({ retryAfterMs: 5000, resetAt: now + 1000 }, now)).toBe(now + 5000);
    expect(earliestRetryAt({}, now)).toBeUndefined();
  });
});
