/** codex's account/rateLimits/updated as debussy's rate_limit events (src/agent/codex/codex-rate-limits.ts). */
import { describe, expect, it } from 'vitest';
import { rateLimitEvents } from '../../../src/agent/codex/codex-rate-limits.js';

const window = (usedPercent: number, windowDurationMins: number | null, resetsAt: number | null) => ({ usedPercent, windowDurationMins, resetsAt });

describe('rateLimitEvents', () => {
  it.each([
    ['the five-hour window used up', { primary: window(100, 300, 1_795_744_665), secondary: window(40, 10_080, 1_795_831_065) }, [
      { type: 'rate_limit', status: 'rejected', resetsAt: 1_795_744_665, rateLimitType: 'five_hour' },
      { type: 'rate_limit', status: 'allowed', resetsAt: 1_795_831_065, rateLimitType: 'seven_day' },
    ]],
    ['the weekly window used up, the other not known', { primary: null, secondary: window(100, 10_080, 1_795_831_065) }, [
      { type: 'rate_limit', status: 'rejected', resetsAt: 1_795_831_065, rateLimitType: 'seven_day' },
    ]],
    ['over 100% is used up too; an unknown window and reset', { primary: window(104.5, null, null), secondary: null }, [
      { type: 'rate_limit', status: 'rejected', rateLimitType: 'codex' },
    ]],
    ['another window length', { primary: window(12, 60, 1_795_740_000) }, [
      { type: 'rate_limit', status: 'allowed', resetsAt: 1_795_740_000, rateLimitType: '60_minute' },
    ]],
  ])('%s', (_name, rateLimits, expected) => {
    expect(rateLimitEvents({ rateLimits })).toEqual(expected);
  });

  it.each([
    ['no snapshot', {}],
    ['a window without usedPercent', { rateLimits: { primary: { windowDurationMins: 300 } } }],
    ['a snapshot of something else', { rateLimits: 'unknown' }],
  ])('nothing from %s', (_name, params) => {
    expect(rateLimitEvents(params as Record<string, unknown>)).toEqual([]);
  });
});
