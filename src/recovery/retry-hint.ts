/**
 * Reads "when may I try again" out of an error text: `retry-after: 30`, "try again in 2 minutes",
 * Claude's "usage limit reached|1767225600", "resets at 2026-01-01T12:00:00Z", "resets 3pm
 * (Europe/Paris)". Pure: the current time is an argument.
 */

export interface RetryHint {
  /** Wait at least this long before the next attempt. */
  retryAfterMs?: number;
  /** Do not try again before this time (epoch ms). */
  resetAt?: number;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function unitMs(unit: string | undefined): number {
  if (unit === undefined || unit === '') return 1000; // retry-after is in seconds by definition
  const u = unit.toLowerCase();
  if (u.startsWith('ms') || u.startsWith('milli')) return UNIT_MS.ms ?? 1;
  if (u.startsWith('h')) return UNIT_MS.h ?? 3_600_000;
  if (u.startsWith('m')) return UNIT_MS.m ?? 60_000;
  return UNIT_MS.s ?? 1000;
}

const UNIT = '(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)?\\b';
const RETRY_AFTER = new RegExp(`retry[- _]after["']?\\s*[:=]?\\s*(\\d+(?:\\.\\d+)?)\\s*${UNIT}`, 'i');
const TRY_AGAIN_IN = new RegExp(`(?:try again|retry|resets?) in (?:about |~)?(\\d+(?:\\.\\d+)?)\\s*${UNIT}`, 'i');
// Claude Code subscription limits have been reported as "...limit reached|<unix seconds>".
const PIPE_EPOCH = /limit reached\|(\d{10,13})\b/i;
const RESET_EPOCH = /resets?(?: at)?\s+(\d{10,13})\b/i;
const RESET_ISO = /resets?(?: at)?\s+(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)/i;
const RESET_CLOCK = /resets?(?: at)?\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\))?/i;

function epochToMs(digits: string): number {
  const n = Number(digits);
  return digits.length <= 10 ? n * 1000 : n;
}

/** Minutes past midnight of `now` as shown on a wall clock in `timeZone` (local time if undefined). */
function wallClockMinutes(now: number, timeZone: string | undefined): number | undefined {
  if (timeZone === undefined) {
    const d = new Date(now);
    return d.getHours() * 60 + d.getMinutes() + d.getSeconds() / 60;
  }
  try {
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(now));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 'NaN');
    const minutes = get('hour') * 60 + get('minute') + get('second') / 60;
    return Number.isFinite(minutes) ? minutes : undefined;
  } catch {
    return undefined; // an unknown time zone name
  }
}

/** The next moment the wall clock in `timeZone` shows hour:minute, after `now`. */
function nextClockTime(now: number, hour: number, minute: number, timeZone: string | undefined): number | undefined {
  const current = wallClockMinutes(now, timeZone) ?? wallClockMinutes(now, undefined);
  if (current === undefined) return undefined;
  let delta = hour * 60 + minute - current;
  if (delta <= 0) delta += 24 * 60;
  return Math.round(now + delta * 60_000);
}

function clockReset(match: RegExpMatchArray, now: number): number | undefined {
  const [, hourText = '', minuteText, meridiem, zone] = match;
  // A bare number ("resets 5") is too ambiguous to act on.
  if (minuteText === undefined && meridiem === undefined) return undefined;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return undefined;
  return nextClockTime(now, hour, minute, zone);
}

export function parseRetryHint(text: string, now: number): RetryHint {
  const hint: RetryHint = {};
  const after = RETRY_AFTER.exec(text) ?? TRY_AGAIN_IN.exec(text);
  if (after) {
    const value = Number(after[1]);
    if (Number.isFinite(value)) hint.retryAfterMs = Math.round(value * unitMs(after[2]));
  }
  const epoch = PIPE_EPOCH.exec(text) ?? RESET_EPOCH.exec(text);
  const iso = RESET_ISO.exec(text);
  if (epoch?.[1] !== undefined) {
    hint.resetAt = epochToMs(epoch[1]);
  } else if (iso?.[1] !== undefined) {
    const parsed = Date.parse(iso[1].replace(' ', 'T'));
    if (Number.isFinite(parsed)) hint.resetAt = parsed;
  } else {
    const clock = RESET_CLOCK.exec(text);
    const at = clock ? clockReset(clock, now) : undefined;
    if (at !== undefined) hint.resetAt = at;
  }
  return hint;
}

/** The earliest time the next attempt may start, given a hint, or undefined when there is none. */
export function earliestRetryAt(hint: RetryHint, now: number): number | undefined {
  const candidates: number[] = [];
  if (hint.retryAfterMs !== undefined) candidates.push(now + hint.retryAfterMs);
  if (hint.resetAt !== undefined) candidates.push(hint.resetAt);
  return candidates.length === 0 ? undefined : Math.max(...candidates);
}
