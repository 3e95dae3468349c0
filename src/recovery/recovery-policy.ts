/**
 * The recovery decision: after a classified session failure, what happens next. In order of
 * preference: continue the same conversation (`--resume`) after a backoff; switch to a fallback
 * model; a fresh session from the checkpoint (condensed, for a context overflow); skip the phase if
 * the config allows; abort. Pure: the state, the failure, the config, the clock and the randomness
 * are all arguments, and the chosen action carries the next state.
 */
import type { ExitCodeName } from '../errors/index.js';
import { computeWait, type JitterStrategy, type RandomSource, type WaitReason } from './backoff.js';
import type { CircuitStatus } from './circuit-breaker.js';
import type { FailureClassification } from './classify.js';
import { CONDENSE_REDUCTIONS, MAX_CONDENSE_LEVEL, type CondenseLevel } from './condense-levels.js';
import type { CrashLoopStatus } from './crash-loop.js';
import { FAILURE_CLASSES } from './failure-class.js';
import { modelFor, type RecoveryState } from './recovery-state.js';

/** The config keys the policy reads (a subset of debussy's resolved config; durations in ms). */
export interface RecoveryConfig {
  model: string | undefined;
  fallback_models: readonly string[];
  max_retries: number;
  allow_skip: boolean;
  backoff_base: number;
  backoff_max: number;
  backoff_jitter: JitterStrategy;
  /** Overloaded sessions in a row before switching to the next fallback model. */
  fallback_after: number;
  /** Rate-limit waits in a row before giving up on the phase. */
  max_rate_limit_waits: number;
  /** The longest single wait debussy accepts (a rate-limit reset hours away gives up instead). */
  max_wait: number;
  /** The circuit may open this many times in a run; the next time it opens, the run stops. */
  circuit_max_trips: number;
}

export interface RecoveryContext {
  now: number;
  random: RandomSource;
  /** The claude session id of the failed session, when it got far enough to have one. */
  sessionId?: string;
  /** The run's circuit breaker, after this failure was recorded. */
  circuit?: Pick<CircuitStatus, 'state' | 'nextAttemptAt' | 'trips'>;
  /** The phase's crash-loop status, after this failure was recorded. */
  crashLoop?: Pick<CrashLoopStatus, 'looping' | 'crashesInWindow' | 'windowMs'>;
}

interface ActionBase {
  /** What happened and what debussy does, for the journal and the live output. */
  reason: string;
  /** The state to keep for the next decision. */
  nextState: RecoveryState;
}

interface SessionActionBase extends ActionBase {
  /** Wait this long before starting the session (0: at once). */
  delayMs: number;
  /** Epoch ms when the session may start: now + delayMs. */
  startAt: number;
  /** Why the wait is this long: the backoff, a server-requested wait, or an open circuit. */
  waitReason: WaitReason | 'circuit' | 'none';
  /** The model for the session (undefined: claude's default). */
  model: string | undefined;
  /** Whether this session uses one of the phase's max_retries. */
  countsAsRetry: boolean;
}

export type RecoveryAction =
  | (SessionActionBase & { kind: 'resume'; sessionId: string })
  | (SessionActionBase & { kind: 'switch_model'; fromModel: string | undefined })
  | (SessionActionBase & { kind: 'fresh_session' })
  | (SessionActionBase & { kind: 'condensed_session'; level: CondenseLevel; reduction: number })
  | (ActionBase & { kind: 'skip_phase'; hint: string })
  | (ActionBase & { kind: 'abort'; scope: 'phase' | 'run'; hint: string; exitKind: ExitCodeName });

export type RecoveryActionKind = RecoveryAction['kind'];

/** A conversation is resumed at most this many times in a row before a fresh session is tried. */
export const MAX_RESUMES_IN_A_ROW = 2;

function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${(m / 60).toFixed(1)} h`;
}

function describeFailure(failure: FailureClassification): string {
  return `${FAILURE_CLASSES[failure.class].label}${failure.status === undefined ? '' : ` (HTTP ${failure.status})`}: ${failure.message}`;
}

type SessionKind = 'resume' | 'switch_model' | 'fresh_session' | 'condensed_session';

interface Plan {
  kind: SessionKind;
  what: string;
  next: RecoveryState;
  countsAsRetry: boolean;
  wait?: { delayMs: number; reason: WaitReason };
  extra?: { sessionId?: string; level?: CondenseLevel; fromModel?: string | undefined };
}

export function chooseRecovery(state: RecoveryState, failure: FailureClassification, config: RecoveryConfig, context: RecoveryContext): RecoveryAction {
  const what = describeFailure(failure);
  const failed: RecoveryState = { ...state, consecutiveFailures: state.consecutiveFailures + 1 };

  const giveUp = (why: string, hint: string, exitKind: ExitCodeName = 'failed'): RecoveryAction => {
    if (config.allow_skip) return { kind: 'skip_phase', reason: `${why}; skipping the phase (allow_skip)`, hint, nextState: failed };
    return { kind: 'abort', scope: 'phase', reason: `${why}; the phase fails`, hint, exitKind, nextState: failed };
  };

  // The same settings hold for every phase and session: trying again cannot help.
  if (failure.class === 'authentication' || failure.class === 'invalid_request' || failure.class === 'permissions') {
    return {
      kind: 'abort',
      scope: 'run',
      reason: `${what}; not retried: the run stops`,
      hint: failure.suggestedAction,
      exitKind: failure.class === 'authentication' ? 'prerequisites' : failure.class === 'permissions' ? 'permissions' : 'failed',
      nextState: failed,
    };
  }
  if (!failure.retryable) return giveUp(`${what}; not retried`, failure.suggestedAction);

  const circuit = context.circuit;
  if (circuit?.state === 'open' && circuit.trips > config.circuit_max_trips) {
    return {
      kind: 'abort',
      scope: 'run',
      reason: `${what}; the circuit breaker has opened ${circuit.trips} times (circuit_max_trips ${config.circuit_max_trips}): the run stops`,
      hint: 'Sessions keep failing across phases. Check the API, the key and the network, then run `debussy run` again to resume.',
      exitKind: 'circuitOpen',
      nextState: failed,
    };
  }
  if (failure.class === 'agent_crash' && context.crashLoop?.looping === true) {
    const minutes = Math.round(context.crashLoop.windowMs / 60_000);
    return giveUp(
      `${what}; ${context.crashLoop.crashesInWindow} crashes within ${minutes} min: automatic restarts stop`,
      'The agent keeps crashing on this phase. Read the session logs (`debussy logs`), fix the cause, then run `debussy run` again.',
      'circuitOpen',
    );
  }

  const retriesLeft = state.retries < config.max_retries;
  const nextFallback = state.modelIndex < config.fallback_models.length;
  const retryExhausted = `no retries left (max_retries ${config.max_retries})`;

  const resumeOrFresh = (): Plan | undefined => {
    if (!retriesLeft) return undefined;
    const next = { ...failed, retries: state.retries + 1 };
    if (context.sessionId !== undefined && state.consecutiveResumes < MAX_RESUMES_IN_A_ROW) {
      return { kind: 'resume', what: 'resuming the same session', next: { ...next, consecutiveResumes: state.consecutiveResumes + 1 }, countsAsRetry: true, extra: { sessionId: context.sessionId } };
    }
    return { kind: 'fresh_session', what: 'a fresh session from the checkpoint', next: { ...next, consecutiveResumes: 0 }, countsAsRetry: true };
  };
  const switchModel = (next: RecoveryState): Plan => ({
    kind: 'switch_model',
    what: `switching to the fallback model ${config.fallback_models[state.modelIndex] ?? '?'}`,
    next: { ...next, modelIndex: state.modelIndex + 1, consecutiveOverloads: 0, consecutiveResumes: 0 },
    countsAsRetry: false,
    // A new model starts a fresh conversation: the old one's history may not fit or be valid for it.
    extra: { fromModel: modelFor(state, config) },
  });

  let plan: Plan | undefined;
  switch (failure.class) {
    case 'rate_limit': {
      if (state.consecutiveRateLimits >= config.max_rate_limit_waits) {
        return giveUp(`${what}; still rate limited after ${state.consecutiveRateLimits} waits (max_rate_limit_waits ${config.max_rate_limit_waits})`, failure.suggestedAction);
      }
      const next = { ...failed, consecutiveRateLimits: state.consecutiveRateLimits + 1 };
      const wait = computeWait(
        {
          attempt: state.consecutiveRateLimits + 1,
          now: context.now,
          ...(state.lastDelayMs === undefined ? {} : { previousDelayMs: state.lastDelayMs }),
          ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
          ...(failure.resetAt === undefined ? {} : { resetAt: failure.resetAt }),
        },
        { baseMs: config.backoff_base, maxMs: config.backoff_max, jitter: config.backoff_jitter },
        context.random,
      );
      if (wait.delayMs > config.max_wait) {
        return giveUp(`${what}; the limit resets at ${new Date(wait.until).toISOString()}, beyond max_wait (${formatDelay(config.max_wait)})`, 'Run `debussy run` again after the reset time, or raise max_wait to let debussy wait.');
      }
      // Waiting out a rate limit is not a failed attempt: it uses no retry.
      plan = context.sessionId !== undefined
        ? { kind: 'resume', what: 'resuming the same session', next, countsAsRetry: false, wait, extra: { sessionId: context.sessionId } }
        : { kind: 'fresh_session', what: 'a fresh session from the checkpoint', next, countsAsRetry: false, wait };
      break;
    }
    case 'context_overflow': {
      const level = state.overflows + 1;
      if (level > MAX_CONDENSE_LEVEL) {
        return giveUp(`${what}; the context still overflows after ${state.overflows} condensed restarts`, 'Split the phase into smaller phases, or attach fewer files and tools to the session.');
      }
      plan = {
        kind: 'condensed_session',
        what: `a fresh session from a checkpoint condensed by ~${Math.round(CONDENSE_REDUCTIONS[level as CondenseLevel] * 100)}% (level ${level})`,
        next: { ...failed, overflows: level, consecutiveResumes: 0 },
        countsAsRetry: false,
        wait: { delayMs: 0, reason: 'backoff' },
        extra: { level: level as CondenseLevel },
      };
      break;
    }
    case 'overloaded': {
      const overloads = state.consecutiveOverloads + 1;
      const next = { ...failed, consecutiveOverloads: overloads };
      plan = overloads >= config.fallback_after && nextFallback ? switchModel(next) : undefined;
      if (!plan) {
        const retry = resumeOrFresh();
        plan = retry ? { ...retry, next: { ...retry.next, consecutiveOverloads: overloads } } : nextFallback ? switchModel(next) : undefined;
      }
      break;
    }
    case 'server_error':
      plan = resumeOrFresh() ?? (nextFallback ? switchModel(failed) : undefined);
      break;
    case 'network':
    case 'stall':
    case 'unknown':
      plan = resumeOrFresh();
      break;
    case 'timeout':
    case 'turn_limit':
    case 'agent_crash':
      // Continuing the conversation would carry on what just went wrong: start over from the checkpoint.
      plan = retriesLeft ? { kind: 'fresh_session', what: 'a fresh session from the checkpoint', next: { ...failed, retries: state.retries + 1, consecutiveResumes: 0 }, countsAsRetry: true } : undefined;
      break;
    case 'budget_limit':
      break;
  }
  if (!plan) return giveUp(`${what}; ${retryExhausted}`, failure.suggestedAction);
  return sessionAction(plan, what, config, context);
}

function sessionAction(plan: Plan, what: string, config: RecoveryConfig, context: RecoveryContext): RecoveryAction {
  let wait = plan.wait;
  if (!wait) {
    const jittered = computeWait(
      { attempt: plan.next.consecutiveFailures, now: context.now, ...(plan.next.lastDelayMs === undefined ? {} : { previousDelayMs: plan.next.lastDelayMs }) },
      { baseMs: config.backoff_base, maxMs: config.backoff_max, jitter: config.backoff_jitter },
      context.random,
    );
    wait = { delayMs: jittered.delayMs, reason: jittered.reason };
  }
  let delayMs = wait.delayMs;
  let waitReason: SessionActionBase['waitReason'] = delayMs > 0 ? wait.reason : 'none';
  const opensAt = context.circuit?.state === 'open' ? context.circuit.nextAttemptAt : undefined;
  if (opensAt !== undefined && opensAt - context.now > delayMs) {
    delayMs = opensAt - context.now;
    waitReason = 'circuit';
  }
  const next: RecoveryState = { ...plan.next, ...(delayMs > 0 ? { lastDelayMs: delayMs } : {}) };
  const whenText = delayMs > 0 ? ` in ${formatDelay(delayMs)}${waitReason === 'circuit' ? ' (circuit breaker open)' : waitReason === 'retry_after' ? ' (retry-after)' : waitReason === 'reset' ? ' (rate-limit reset)' : ''}` : '';
  const base: SessionActionBase = {
    reason: `${what}; ${plan.what}${whenText}`,
    nextState: next,
    delayMs,
    startAt: context.now + delayMs,
    waitReason,
    model: modelFor(next, config),
    countsAsRetry: plan.countsAsRetry,
  };
  switch (plan.kind) {
    case 'resume':
      return { ...base, kind: 'resume', sessionId: plan.extra?.sessionId ?? '' };
    case 'switch_model':
      return { ...base, kind: 'switch_model', fromModel: plan.extra?.fromModel };
    case 'condensed_session': {
      const level = plan.extra?.level ?? 1;
      return { ...base, kind: 'condensed_session', level, reduction: CONDENSE_REDUCTIONS[level] };
    }
    case 'fresh_session':
      return { ...base, kind: 'fresh_session' };
  }
}
