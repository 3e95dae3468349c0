/**
 * How long to wait before the next attempt: exponential backoff with jitter, capped, and never
 * shorter than what the server asked for (retry-after, a rate-limit reset). Pure: randomness is an
 * argument, so tests pass a seeded source.
 */

/** Returns a number in [0, 1), like Math.random. */
export type RandomSource = () => number;

export type JitterStrategy = 'full' | 'decorrelated';

export interface BackoffOptions {
  /** The first delay's scale, ms. */
  baseMs: number;
  /** No computed delay exceeds this (a server-requested wait may). */
  maxMs: number;
  jitter: JitterStrategy;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = { baseMs: 2_000, maxMs: 120_000, jitter: 'full' };

/**
 * A small deterministic generator (mulberry32) for tests and reproducible runs. Not for anything
 * that needs to be unpredictable.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function unit(random: RandomSource): number {
  const r = random();
  // Guard against a source that strays outside [0, 1): the delay must stay within its bounds.
  return Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
}

/** The un-jittered ceiling for the n-th attempt (1-based): base * 2^(n-1), capped. */
export function backoffCeiling(attempt: number, options: BackoffOptions): number {
  const n = Math.max(1, Math.floor(attempt));
  // 2^(n-1) overflows to Infinity for large n; min() keeps it at the cap.
  return Math.min(options.maxMs, options.baseMs * 2 ** (n - 1));
}

/**
 * The jittered delay for the n-th attempt (1-based).
 * - full: uniform in [0, ceiling] (spreads clients apart best; may be near zero).
 * - decorrelated: uniform in [base, 3 * previous], capped; grows from the previous delay instead of
 *   the attempt number, so pass the delay you used last time.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: RandomSource, previousDelayMs?: number): number {
  if (options.jitter === 'decorrelated') {
    const previous = Math.max(options.baseMs, previousDelayMs ?? options.baseMs);
    const high = Math.max(options.baseMs, previous * 3);
    return Math.round(Math.min(options.maxMs, options.baseMs + unit(random) * (high - options.baseMs)));
  }
  return Math.round(unit(random) * backoffCeiling(attempt, options));
}

export interface WaitRequest {
  /** 1-based number of the attempt about to be made after this wait. */
  attempt: number;
  now: number;
  previousDelayMs?: number;
  retryAfterMs?: number;
  /** Epoch ms: do not start before this. */
  resetAt?: number;
}

export type WaitReason = 'backoff' | 'retry_after' | 'reset';

export interface Wait {
  delayMs: number;
  /** Which rule set the delay: the backoff, or a wait the server asked for. */
  reason: WaitReason;
  /** now + delayMs. */
  until: number;
}

/** The wait before the next attempt: the backoff, or longer if the server asked for longer. */
export function computeWait(request: WaitRequest, options: BackoffOptions, random: RandomSource): Wait {
  let delayMs = backoffDelay(request.attempt, options, random, request.previousDelayMs);
  let reason: WaitReason = 'backoff';
  if (request.retryAfterMs !== undefined && request.retryAfterMs > delayMs) {
    delayMs = Math.ceil(request.retryAfterMs);
    reason = 'retry_after';
  }
  if (request.resetAt !== undefined && request.resetAt - request.now > delayMs) {
    delayMs = Math.ceil(request.resetAt - request.now);
    reason = 'reset';
  }
  return { delayMs, reason, until: request.now + delayMs };
}
