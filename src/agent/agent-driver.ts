/**
 * The seam between debussy's core and an agent CLI. The core (the session runner, the phase loop,
 * recovery) knows agents only through this: a driver starts sessions, each session yields
 * `AgentEvent`s and ends with a `SessionEnd`, and the driver says what its agent can do. Everything
 * particular to one CLI (its command line, its environment variables, its permission flags, its
 * stream format and error shapes, its resume quirks) lives in the driver's folder (agent/claude/).
 * Tests drive the core with an in-process driver of their own (test/support/in-process-agent.ts).
 */
import type { Redactor } from '../redact/index.js';
import type { AgentSession } from './agent-session.js';
import type { LogFailure } from './session-logs.js';

/** The agents debussy can drive. */
export type AgentName = 'claude' | 'codex' | 'gemini';

/** What an agent can do; the core adapts where one cannot (and says so), never assumes. */
export interface AgentCapabilities {
  /** Reports each model call's usage as it happens (the context monitor measures between calls). */
  perCallUsage: boolean;
  /** Can be asked to stop after the running tool, without losing the turn's work. */
  gracefulStop: boolean;
  /** Can continue an earlier session by its id (a reminder, a recovery resume). */
  resume: boolean;
  /** Runs debussy's hooks (a stop guard before each tool, a refusal of the CLI's own compaction). */
  hooks: boolean;
}

/** One session to start: the same for every agent. */
export interface AgentLaunch {
  prompt: string;
  cwd: string;
  /** The whole environment (debussy's variables and the shim on PATH already in it). */
  env: Record<string, string | undefined>;
  /** Where the agent's `debussy` shim lives (on PATH in `env`): a driver may pin it in its own way. */
  shimDir: string;
  model?: string;
  /** Continue this session of the agent instead of starting a new one. */
  resumeSessionId?: string;
  /** What the budget leaves, in dollars ("1.25"), for an agent that can stop itself there too. */
  maxBudgetUsd?: string;
  rawLogPath: string;
  readableLogPath: string;
  stopGraceMs: number;
  redact: Redactor;
  onLogFailure?: (failure: LogFailure) => void;
}

/** What a session that continues another must keep from it (its model variant, its window). */
export interface ResumeKeep {
  model?: string;
  contextWindow?: number;
}

export interface AgentDriver {
  readonly name: AgentName;
  /** For messages: "Claude Code". */
  readonly displayName: string;
  readonly capabilities: AgentCapabilities;
  /**
   * The checks made before a run starts anything (the agent can be started, its settings can be
   * read): throws the one clear error when no session could work.
   */
  check(root: string, env: NodeJS.ProcessEnv): void;
  /** What the run should warn of before its first session (permissions that refuse the gates, hooks turned off). */
  warnings(root: string, env: NodeJS.ProcessEnv, gateCommands: readonly string[]): string[];
  /** Starts one session; a session that cannot start rejects `ended` and its events with why. */
  start(launch: AgentLaunch): AgentSession;
  /** The context window of a model, where the agent's models are not in debussy's own table (codex's gpt-*, gemini's 1,048,576-token models); undefined: debussy's table decides. */
  contextWindowFor?(model: string | undefined): number | undefined;
  /** What a resumed session must be told again of the one it continues (the agent forgets it). */
  resumeKeep(session: { model: string | undefined; contextWindow: number | undefined }): ResumeKeep;
}
