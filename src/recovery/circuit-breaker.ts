/**
 * A circuit breaker around agent sessions, shared by all phases of a run. Closed: sessions run.
 * After `failure_threshold` failures within `monitor_window` it opens: no session starts until
 * `reset_timeout` has passed. Then it is half-open: sessions run again on probation; after
 * `half_open_successes` good sessions it closes, and one failure opens it again.
 *
 * The clock is injected and the whole state is a plain snapshot (`toJSON`), so a resumed run picks
 * up where the last one stopped.
 */

export type CircuitState = 'closed' | 'open' | 'half-open';

/** Durations in ms; names match debussy's config keys. */
export interface CircuitBreakerConfig {
  failure_threshold: number;
  monitor_window: number;
  reset_timeout: number;
  half_open_successes: number;
}

/** The advanced-error-recovery design's defaults: 5 failures in 60 s, 30 s cool-down, 3 probes. */
export const DEFAULT_CIRCUIT_CONFIG: Readonly<CircuitBreakerConfig> = {
  failure_threshold: 5,
  monitor_window: 60_000,
  reset_timeout: 30_000,
  half_open_successes: 3,
};

export type Clock = () => number;

export interface CircuitSnapshot {
  version: 1;
  /** 'open' stays stored as open after the cool-down; `status()` reports half-open. */
  state: CircuitState;
  /** Failure times (epoch ms) still inside the monitor window when last recorded. */
  failures: number[];
  openedAt?: number;
  halfOpenSuccesses: number;
  /** How many times the circuit has opened in this run. */
  trips: number;
  lastFailureAt?: number;
  lastSuccessAt?: number;
}

export interface CircuitStatus {
  state: CircuitState;
  failuresInWindow: number;
  halfOpenSuccesses: number;
  trips: number;
  openedAt?: number;
  /** When open: the time a session may start again (half-open). */
  nextAttemptAt?: number;
  lastFailureAt?: number;
  lastSuccessAt?: number;
}

export interface CircuitTransition {
  from: CircuitState;
  to: CircuitState;
  at: number;
  /** For the journal: "5 failures within 60 s", "a failure while half-open", ... */
  reason: string;
}

function emptySnapshot(): CircuitSnapshot {
  return { version: 1, state: 'closed', failures: [], halfOpenSuccesses: 0, trips: 0 };
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Narrows a journaled snapshot; undefined when it is not one. */
export function parseCircuitSnapshot(value: unknown): CircuitSnapshot | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.version !== 1) return undefined;
  if (v.state !== 'closed' && v.state !== 'open' && v.state !== 'half-open') return undefined;
  if (!Array.isArray(v.failures) || !v.failures.every(isTime)) return undefined;
  if (!isTime(v.halfOpenSuccesses) || !isTime(v.trips)) return undefined;
  if (v.state === 'open' && !isTime(v.openedAt)) return undefined;
  const snapshot: CircuitSnapshot = { version: 1, state: v.state, failures: [...v.failures], halfOpenSuccesses: v.halfOpenSuccesses, trips: v.trips };
  if (isTime(v.openedAt)) snapshot.openedAt = v.openedAt;
  if (isTime(v.lastFailureAt)) snapshot.lastFailureAt = v.lastFailureAt;
  if (isTime(v.lastSuccessAt)) snapshot.lastSuccessAt = v.lastSuccessAt;
  return snapshot;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

export class CircuitBreaker {
  readonly config: Readonly<CircuitBreakerConfig>;
  private readonly clock: Clock;
  private snap: CircuitSnapshot;

  constructor(config: Partial<CircuitBreakerConfig> = {}, clock: Clock = Date.now, snapshot?: CircuitSnapshot) {
    this.config = { ...DEFAULT_CIRCUIT_CONFIG, ...config };
    this.clock = clock;
    this.snap = snapshot ? { ...snapshot, failures: [...snapshot.failures] } : emptySnapshot();
  }

  /** Rebuilds a breaker from a journaled snapshot; a malformed one starts closed. */
  static fromSnapshot(value: unknown, config: Partial<CircuitBreakerConfig> = {}, clock: Clock = Date.now): CircuitBreaker {
    return new CircuitBreaker(config, clock, parseCircuitSnapshot(value));
  }

  private reopensAt(): number | undefined {
    return this.snap.openedAt === undefined ? undefined : this.snap.openedAt + this.config.reset_timeout;
  }

  private effectiveState(now: number): CircuitState {
    if (this.snap.state !== 'open') return this.snap.state;
    const at = this.reopensAt();
    return at !== undefined && now >= at ? 'half-open' : 'open';
  }

  /** Makes the lazy open -> half-open change real before recording anything. */
  private settle(now: number): CircuitState {
    const state = this.effectiveState(now);
    if (state === 'half-open' && this.snap.state === 'open') this.snap = { ...this.snap, state: 'half-open', halfOpenSuccesses: 0 };
    return state;
  }

  private inWindow(now: number): number[] {
    const since = now - this.config.monitor_window;
    return this.snap.failures.filter((t) => t > since && t <= now);
  }

  status(): CircuitStatus {
    const now = this.clock();
    const state = this.effectiveState(now);
    const status: CircuitStatus = {
      state,
      failuresInWindow: this.inWindow(now).length,
      halfOpenSuccesses: state === 'half-open' ? this.snap.halfOpenSuccesses : 0,
      trips: this.snap.trips,
    };
    if (this.snap.openedAt !== undefined && state !== 'closed') status.openedAt = this.snap.openedAt;
    const at = this.reopensAt();
    if (state === 'open' && at !== undefined) status.nextAttemptAt = at;
    if (this.snap.lastFailureAt !== undefined) status.lastFailureAt = this.snap.lastFailureAt;
    if (this.snap.lastSuccessAt !== undefined) status.lastSuccessAt = this.snap.lastSuccessAt;
    return status;
  }

  /** Whether a session may start now. */
  canAttempt(): boolean {
    return this.effectiveState(this.clock()) !== 'open';
  }

  /** Records a failed session; returns the transition if it opened the circuit. */
  recordFailure(): CircuitTransition | undefined {
    const now = this.clock();
    const state = this.settle(now);
    const failures = [...this.inWindow(now), now];
    this.snap = { ...this.snap, failures, lastFailureAt: now };
    if (state === 'half-open') return this.open(now, 'half-open', 'a session failed while the circuit was half-open');
    if (state === 'closed' && failures.length >= this.config.failure_threshold) {
      return this.open(now, 'closed', `${failures.length} failures within ${seconds(this.config.monitor_window)}`);
    }
    return undefined;
  }

  /** Records a good session; returns the transition if it closed the circuit. */
  recordSuccess(): CircuitTransition | undefined {
    const now = this.clock();
    const state = this.settle(now);
    this.snap = { ...this.snap, lastSuccessAt: now };
    if (state !== 'half-open') return undefined;
    const successes = this.snap.halfOpenSuccesses + 1;
    if (successes < this.config.half_open_successes) {
      this.snap = { ...this.snap, halfOpenSuccesses: successes };
      return undefined;
    }
    const { openedAt: _dropped, ...rest } = this.snap;
    this.snap = { ...rest, state: 'closed', failures: [], halfOpenSuccesses: 0 };
    return { from: 'half-open', to: 'closed', at: now, reason: `${successes} good session(s) while half-open` };
  }

  /** Closes the circuit and forgets failures (trip count is kept). */
  reset(): void {
    this.snap = { version: 1, state: 'closed', failures: [], halfOpenSuccesses: 0, trips: this.snap.trips };
  }

  toJSON(): CircuitSnapshot {
    return { ...this.snap, failures: [...this.snap.failures] };
  }

  private open(now: number, from: CircuitState, reason: string): CircuitTransition {
    this.snap = { ...this.snap, state: 'open', openedAt: now, failures: [], halfOpenSuccesses: 0, trips: this.snap.trips + 1 };
    return { from, to: 'open', at: now, reason: `${reason}; trying again after ${seconds(this.config.reset_timeout)}` };
  }
}
