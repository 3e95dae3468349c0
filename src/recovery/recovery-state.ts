/**
 * What the recovery policy remembers about one phase between its sessions: the budgets used so
 * far. Plain data, so the lead can journal it and rebuild it on resume.
 */

export interface RecoveryState {
  /** Retries used in this phase (resumes and fresh sessions after a failure). Shared with the
   * orchestrator's `max_retries` counter. Rate-limit waits, condensed restarts and model switches
   * do not use it: they have budgets of their own. */
  retries: number;
  /** Context overflows recovered so far; the next condensed checkpoint uses level overflows + 1. */
  overflows: number;
  /** 0: the configured model; n: fallback_models[n - 1]. */
  modelIndex: number;
  /** Rate-limit failures since the last good session. */
  consecutiveRateLimits: number;
  /** Overloaded (529) failures since the last good session or model switch. */
  consecutiveOverloads: number;
  /** `--resume`s of one conversation in a row; past the limit the next try is a fresh session. */
  consecutiveResumes: number;
  /** Failures of any class since the last good session: the backoff's attempt number. */
  consecutiveFailures: number;
  /** The last wait, for decorrelated jitter. */
  lastDelayMs?: number;
}

export function initialRecoveryState(): RecoveryState {
  return { retries: 0, overflows: 0, modelIndex: 0, consecutiveRateLimits: 0, consecutiveOverloads: 0, consecutiveResumes: 0, consecutiveFailures: 0 };
}

/**
 * After a session that ended well (completed, or stopped by debussy at the context threshold):
 * streaks end, budgets stay used, and the model stays where it is (it just worked).
 */
export function afterSessionSuccess(state: RecoveryState): RecoveryState {
  return { retries: state.retries, overflows: state.overflows, modelIndex: state.modelIndex, consecutiveRateLimits: 0, consecutiveOverloads: 0, consecutiveResumes: 0, consecutiveFailures: 0 };
}

/** The model a session should use in this state: undefined means claude's default. */
export function modelFor(state: RecoveryState, config: { model: string | undefined; fallback_models: readonly string[] }): string | undefined {
  if (state.modelIndex <= 0) return config.model;
  return config.fallback_models[state.modelIndex - 1] ?? config.fallback_models.at(-1) ?? config.model;
}

const COUNTERS = ['retries', 'overflows', 'modelIndex', 'consecutiveRateLimits', 'consecutiveOverloads', 'consecutiveResumes', 'consecutiveFailures'] as const;

/** Reads a journaled state back; anything malformed yields undefined (start from the initial state). */
export function parseRecoveryState(value: unknown): RecoveryState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const state = initialRecoveryState();
  for (const key of COUNTERS) {
    const n = record[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
    state[key] = n;
  }
  const last = record.lastDelayMs;
  if (typeof last === 'number' && Number.isFinite(last) && last >= 0) state.lastDelayMs = last;
  return state;
}
