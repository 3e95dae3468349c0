import { describe, expect, it } from 'vitest';
import { decideUsageLimitWait, formatClock, recognizeUsageLimit, zonedTime } from '../../src/recovery/usage-limit.js';

// 2026-11-23 23:30:00.697 UTC = 2026-11-24 00:30 in Paris (UTC+1); the odd milliseconds are a clock's.
const NOW = Date.UTC(2026, 10, 23, 23, 30, 0, 697);

describe('recognizeUsageLimit', () => {
  it.each([
    [
      'rate_limit_event rejected (epoch seconds)',
      { rateLimits: [{ status: 'allowed_warning', resetsAt: 1 }, { status: 'rejected', resetsAt: 1_795_484_289, rateLimitType: 'five_hour' }], texts: [] },
      { resetAt: 1_795_484_289_000, kind: 'five_hour', source: 'rate_limit_event' },
    ],
    [
      'the event wins over the text',
      { rateLimits: [{ status: 'rejected', resetsAt: 1_795_484_289, rateLimitType: 'seven_day' }], texts: ["You've hit your session limit · resets 5am (Europe/Paris)"] },
      { resetAt: 1_795_484_289_000, kind: 'seven_day', source: 'rate_limit_event' },
    ],
    [
      "2.1.197's text, a clock time in a named zone",
      { rateLimits: [], texts: [undefined, "You've hit your session limit · resets 5am (Europe/Paris)"] },
      { resetAt: Date.UTC(2026, 10, 24, 4, 0), kind: 'five_hour', source: 'text' },
    ],
    [
      "2.1.197's text with minutes, through the API error wrapper",
      { rateLimits: [], texts: ["API Error: Request rejected (429) · You've hit your weekly limit · resets 1:38am (UTC)"] },
      { resetAt: Date.UTC(2026, 10, 24, 1, 38), kind: 'seven_day', source: 'text' },
    ],
    [
      'a clock time that passed less than a minute ago is now, not tomorrow',
      { rateLimits: [], texts: ["You've hit your Opus limit · resets 11:30pm (UTC)"] },
      { resetAt: Date.UTC(2026, 10, 23, 23, 30), kind: 'seven_day_opus', source: 'text' },
    ],
    [
      "a reset over a day away: claude's dated form",
      { rateLimits: [], texts: ["You've hit your weekly limit · resets Nov 25, 6:38am (Europe/Paris)"] },
      { resetAt: Date.UTC(2026, 10, 25, 5, 38), kind: 'seven_day', source: 'text' },
    ],
    [
      'the older pipe-epoch form',
      { rateLimits: [], texts: ['Claude AI usage limit reached|1795484400'] },
      { resetAt: 1_795_484_400_000, kind: 'usage limit', source: 'text' },
    ],
    [
      'a usage limit without a reset time',
      { rateLimits: [], texts: ["You've hit your session limit"] },
      { resetAt: undefined, kind: 'five_hour', source: 'text' },
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(recognizeUsageLimit({ ...input, now: NOW })).toEqual(expected);
  });

  it('a clock time without a zone is read in the local zone (TZ)', () => {
    const local = new Date(NOW);
    const next5am = new Date(local.getFullYear(), local.getMonth(), local.getDate() + (local.getHours() >= 5 ? 1 : 0), 5, 0).getTime();
    expect(recognizeUsageLimit({ rateLimits: [], texts: ["You've hit your session limit · resets 5am"], now: NOW })?.resetAt).toBe(next5am);
  });

  it.each([
    ['an overload', 'API Error: Repeated 529 Overloaded errors'],
    ['a plain 429 without a limit text', 'API Error: Request rejected (429) · rate limited'],
    ['a warning only', "You've used 95% of your session limit · resets 5am"],
  ])('is not a usage limit: %s', (_name, text) => {
    expect(recognizeUsageLimit({ rateLimits: [{ status: 'allowed_warning', resetsAt: 1 }], texts: [text], now: NOW })).toBeUndefined();
  });
});

describe('zonedTime', () => {
  it.each([
    [2026, 10, 24, 5, 0, 'Europe/Paris', Date.UTC(2026, 10, 24, 4, 0)],
    [2026, 6, 1, 5, 0, 'Europe/Paris', Date.UTC(2026, 6, 1, 3, 0)],
    [2026, 10, 24, 5, 0, 'America/New_York', Date.UTC(2026, 10, 24, 10, 0)],
    [2026, 10, 24, 5, 30, 'Asia/Kolkata', Date.UTC(2026, 10, 24, 0, 0)],
  ])('%i-%i-%i %i:%i in %s', (y, m, d, h, min, zone, expected) => {
    expect(zonedTime(y, m, d, h, min, zone)).toBe(expected);
  });

  it('is undefined for an unknown zone', () => {
    expect(zonedTime(2026, 0, 1, 0, 0, 'Mars/Olympus')).toBeUndefined();
  });
});

describe('decideUsageLimitWait', () => {
  const sixHours = 6 * 3_600_000;
  it.each([
    ['a reset within max_wait: wait for it (and a second)', NOW + 5_000, { kind: 'wait', untilMs: NOW + 6_000, delayMs: 6_000 }],
    ['a reset just now', NOW, { kind: 'wait', untilMs: NOW + 1_000, delayMs: 1_000 }],
    ['a reset already past: go on after the margin', NOW - 5_000, { kind: 'wait', untilMs: NOW + 1_000, delayMs: 1_000 }],
  ] as const)('%s', (_name, resetAt, expected) => {
    expect(decideUsageLimitWait({ resetAt, kind: 'five_hour', source: 'text' }, NOW, sixHours)).toEqual(expected);
  });

  it('ends the run with the resume time when the reset is beyond max_wait', () => {
    const decision = decideUsageLimitWait({ resetAt: NOW + 7 * 3_600_000, kind: 'seven_day', source: 'rate_limit_event' }, NOW, sixHours);
    expect(decision).toMatchObject({ kind: 'end', resumeAt: NOW + 7 * 3_600_000 });
    expect(decision.kind === 'end' && decision.reason).toContain('beyond max_wait');
  });

  it('ends the run when nothing says when the limit resets', () => {
    expect(decideUsageLimitWait({ resetAt: undefined, kind: 'five_hour', source: 'text' }, NOW, sixHours)).toMatchObject({ kind: 'end', resumeAt: undefined });
  });
});

describe('formatClock', () => {
  it('shows the reset in the given zone', () => {
    expect(formatClock(Date.UTC(2026, 10, 24, 4, 0), 'Europe/Paris')).toBe('2026-11-24 05:00 (Europe/Paris)');
  });
});
