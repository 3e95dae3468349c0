/**
 * One session of an agent, as the core sees it whatever the CLI: its events as they come, a
 * graceful or immediate stop, a kill, and how it ended. Each driver implements it
 * (agent/claude/claude-session.ts; the in-process agent of the tests).
 */
import type { ApiErrorEvent, ApiRetryEvent, AgentEvent, ResultEvent } from './agent-events.js';
import type { PriceCall } from './call-usage.js';
import type { LogFailure } from './session-logs.js';

/** What a session of any agent is given by the run, besides what is the agent's own (sessionBasicsOf fills it). */
export interface SessionBasics {
  cwd: string;
  /** The whole environment (the `debussy` shim's folder first on PATH). */
  env: Record<string, string | undefined>;
  prompt: string;
  rawLogPath?: string;
  readableLogPath?: string;
  /** Each step of a stop that escalates waits this long for the last; leftover processes get as long. Default 5000. */
  stopGraceMs?: number;
  onEvent?: (event: AgentEvent) => void;
  /** Scrubs secrets from each line before it is written to the session logs, and from tool summaries. */
  redact?: (text: string) => string;
  /** Hears of a session log that cannot be written (a full disk), once per log, when it happens. */
  onLogFailure?: (failure: LogFailure) => void;
  /** debussy's estimate of one call's cost, for an agent that reports none. */
  priceCall?: PriceCall;
}

/** How a session ended: done with a result, stopped by debussy, an API failure, an error result, a crash (no result), killed. */
export type SessionOutcome = 'completed' | 'stopped' | 'api_error' | 'error' | 'crashed' | 'killed';

export interface SessionEnd {
  outcome: SessionOutcome;
  exitCode: number | null;
  signal: string | null;
  result?: ResultEvent;
  sawResult: boolean;
  stopRequested: boolean;
  stopReason?: string;
  unparsedLines: number;
  stderrTail: string;
  /** The last API error the CLI reported (its synthetic error message), as it came. */
  lastApiError?: ApiErrorEvent;
  /** The last retry the CLI announced, as it came. */
  lastRetry?: ApiRetryEvent;
  /** claude's session id: the result's, else the init line's. */
  sessionId?: string;
  durationMs: number;
  leftoverProcessesKilled: number;
  /** The main agent's tokens counted from the stream (see StreamParseState.streamTokens). */
  streamTokens: { input: number; output: number };
  /** The session's logs that could not be written whole, and why. */
  incompleteLogs: LogFailure[];
}

/**
 * Why the caller stopped a session, when it did: the session itself knows only that a stop was asked.
 * budget: max_cost / max_phase_cost reached (debussy's running total, or claude's own --max-budget-usd).
 */
export type StopCause = 'context' | 'compaction' | 'timeout' | 'stall' | 'interrupt' | 'budget';

/** An API error in one line: "rate_limit: API Error: 429 ...". */
export function apiErrorMessage(error: Pick<ApiErrorEvent, 'errorType' | 'text'>): string {
  return `${error.errorType}: ${error.text}`;
}

export interface AgentSession {
  /** 0 when the process could not be started (then `ended` rejects with the reason). */
  readonly pid: number;
  readonly startTime: number | undefined;
  /** Value of DEBUSSY_SESSION_MARKER in the session's environment: finds its processes after a crash. */
  readonly marker: string;
  /** Iterable once; throws the start error if the process could not be started. */
  events(): AsyncIterable<AgentEvent>;
  /**
   * Let running tools of the current turn finish, then stop before the next model turn. With
   * `immediate`, stop now: claude aborts a running tool (for an interrupt or a timeout).
   */
  requestStop(reason: string, options?: { immediate?: boolean }): void;
  /** SIGKILL now, and end every process of the session; resolves once the session has ended. */
  kill(reason: string): Promise<void>;
  /**
   * Whether debussy's hooks run in this session (its SessionStart hook answered); ask once claude
   * has answered a request. Undefined for a session without them (stopGuard: false); absent for an
   * agent without hooks.
   */
  hooksAnswered?(): boolean | undefined;
  readonly ended: Promise<SessionEnd>;
}
