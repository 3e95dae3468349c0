/**
 * Recognises a subscription usage limit (or an API rate limit that says when it resets) and decides
 * whether to wait for its reset. Claude Code 2.1.197 reports it two ways (measured against the
 * scripted server, /work/shared facts in docs/budgets.md):
 * - a `rate_limit_event` in stream-json, `rate_limit_info: {status: "rejected", resetsAt: <unix s>,
 *   rateLimitType: "five_hour" | "seven_day" | ...}`, from the anthropic-ratelimit-unified-* headers;
 * - the text of its synthetic message and result: "You've hit your session limit · resets 3pm
 *   (Europe/Paris)", or "resets Nov 25, 6:38am (Europe/Paris)" for a reset over 24 hours away.
 * Older versions wrote "Claude AI usage limit reached|<unix s>"; an API error may say "resets at
 * <epoch>" or "resets 5am". The event's epoch wins over a text's clock time. Pure: the clock is an
 * argument.
 */
import { parseRetryHint } from './retry-hint.js';

/** The `rate_limit_info` of a `rate_limit_event`, as the stream parser hands it on. */
export interface RateLimitInfo {
  status: string;
  /** Unix seconds. */
  resetsAt?: number;
  rateLimitType?: string;
}

export interface UsageLimit {
  /** Epoch ms of the reset; undefined when nothing said when. */
  resetAt: number | undefined;
  /** five_hour, seven_day, seven_day_opus, ..., or what the text named ("session limit"). */
  kind: string;
  source: 'rate_limit_event' | 'text';
}

export interface UsageLimitInput {
  rateLimits: readonly RateLimitInfo[];
  /** The result text and the API error text of the session. */
  texts: readonly (string | undefined)[];
  now: number;
}

const LIMIT_TEXT = [
  /you've (?:hit|reached) your ([a-z0-9 ]*?limit)\b/i,
  /\b(usage limit) reached\b/i,
  /\b(5-hour limit|weekly limit|session limit) reached\b/i,
];

const TEXT_KINDS: ReadonlyArray<[RegExp, string]> = [
  [/session limit|5-hour|five.hour/i, 'five_hour'],
  [/opus limit/i, 'seven_day_opus'],
  [/sonnet limit/i, 'seven_day_sonnet'],
  [/weekly limit/i, 'seven_day'],
];

export function recognizeUsageLimit(input: UsageLimitInput): UsageLimit | undefined {
  const rejected = [...input.rateLimits].reverse().find((info) => info.status === 'rejected');
  if (rejected !== undefined) {
    return { resetAt: rejected.resetsAt === undefined ? undefined : rejected.resetsAt * 1000, kind: rejected.rateLimitType ?? 'unknown', source: 'rate_limit_event' };
  }
  for (const text of input.texts) {
    if (text === undefined) continue;
    const named = LIMIT_TEXT.map((re) => re.exec(text)).find((m) => m !== null);
    if (!named) continue;
    const phrase = named[1] ?? 'usage limit';
    const kind = TEXT_KINDS.find(([re]) => re.test(phrase))?.[1] ?? phrase.toLowerCase();
    return { resetAt: resetFromText(text, input.now), kind, source: 'text' };
  }
  return undefined;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** "resets Nov 25, 6:38am (Europe/Paris)": claude's form for a reset over 24 hours away. */
const RESET_DATE = /resets?(?: at)?\s+([A-Z][a-z]{2})\s+(\d{1,2})(?:,\s*(\d{4}))?,?\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\))?/i;
/** A clock time that just passed (claude shows minutes, not seconds) is the reset now, not tomorrow's. */
const JUST_PASSED_MS = 10 * 60_000;

function resetFromText(text: string, now: number): number | undefined {
  const dated = RESET_DATE.exec(text);
  if (dated) return datedReset(dated, now);
  const hint = parseRetryHint(text, now);
  if (hint.resetAt !== undefined) {
    if (/\d{10}|\d{4}-\d{2}-\d{2}/.test(text)) return hint.resetAt;
    // A clock time ("3:07pm") falls on a whole minute; parseRetryHint takes one that has passed as tomorrow's.
    const dayMs = 24 * 3_600_000;
    const onTheMinute = Math.round(hint.resetAt / 60_000) * 60_000;
    return onTheMinute - now > dayMs - JUST_PASSED_MS ? onTheMinute - dayMs : onTheMinute;
  }
  return hint.retryAfterMs === undefined ? undefined : now + hint.retryAfterMs;
}

function datedReset(match: RegExpExecArray, now: number): number | undefined {
  const [, monthText = '', dayText = '', yearText, hourText = '', minuteText, meridiem = '', zone] = match;
  const month = MONTHS.indexOf(monthText.toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(hourText) % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  const year = yearText === undefined ? new Date(now).getUTCFullYear() : Number(yearText);
  let at = zonedTime(year, month, Number(dayText), hour, minute, zone);
  if (at === undefined) return undefined;
  if (yearText === undefined && at < now - JUST_PASSED_MS) at = zonedTime(year + 1, month, Number(dayText), hour, minute, zone) ?? at;
  return at;
}

/** Epoch ms at which the wall clock in `timeZone` (local time if undefined) shows this date and time. */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, timeZone: string | undefined): number | undefined {
  const asUtc = Date.UTC(year, month, day, hour, minute);
  if (timeZone === undefined) return new Date(year, month, day, hour, minute).getTime();
  let guess = asUtc;
  // Two corrections settle the zone's offset, daylight saving included.
  for (let i = 0; i < 2; i += 1) {
    const shown = wallClockAsUtc(guess, timeZone);
    if (shown === undefined) return undefined;
    guess += asUtc - shown;
  }
  return guess;
}

function wallClockAsUtc(at: number, timeZone: string): number | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(new Date(at));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 'NaN');
    const value = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined; // an unknown zone name
  }
}

export type UsageLimitWait =
  | { kind: 'wait'; untilMs: number; delayMs: number }
  | { kind: 'end'; resumeAt: number | undefined; reason: string };

/** After the reset, a moment for the provider's clock to agree with ours. */
export const RESET_MARGIN_MS = 1000;

/** Wait for the reset when it is within max_wait; otherwise end the run with the time to resume. */
export function decideUsageLimitWait(limit: UsageLimit, now: number, maxWaitMs: number): UsageLimitWait {
  if (limit.resetAt === undefined) return { kind: 'end', resumeAt: undefined, reason: `usage limit reached (${limit.kind}) with no reset time given` };
  const untilMs = Math.max(now, limit.resetAt) + RESET_MARGIN_MS;
  const delayMs = untilMs - now;
  if (delayMs > maxWaitMs) return { kind: 'end', resumeAt: limit.resetAt, reason: `usage limit reached (${limit.kind}); it resets at ${formatClock(limit.resetAt)}, beyond max_wait` };
  return { kind: 'wait', untilMs, delayMs };
}

/** "2026-11-24 05:00 (Europe/Paris)": the reset in the user's own time zone. */
export function formatClock(at: number, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(at));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} (${zone})`;
}
