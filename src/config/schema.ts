/**
 * The one configuration schema: every key's type, default, bounds, command-line flag and meaning.
 * Defaults, validation, `debussy config`, the `run` flags, `debussy init`'s commented config file
 * and docs/configuration.md all come from this table, so none of them can drift from the others.
 */

export type ValueKind = 'number' | 'integer' | 'boolean' | 'string' | 'string[]' | 'record' | 'duration';

export interface KeyDefinition {
  kind: ValueKind;
  /** Undefined means "not set" (e.g. `model`: the CLI's own default). */
  default: unknown;
  min?: number;
  max?: number;
  /** Allowed string values. */
  choices?: readonly string[];
  /** The `debussy run` flag that overrides it, if any. */
  flag?: string;
  /** One-line meaning, for docs and --help. */
  description: string;
  /** Which group it belongs to in docs and the generated config file. */
  group: 'context' | 'limits' | 'git' | 'agent' | 'gates';
}

export const CONFIG_SCHEMA = {
  context_threshold: {
    kind: 'number', default: 80, min: 1, max: 100, flag: '--context-threshold', group: 'context',
    description: 'Percent of the context window at which a session is stopped and restarted fresh. 100 disables stopping.',
  },
  tool_call_threshold: {
    kind: 'integer', default: 100, min: 1, flag: '--tool-call-threshold', group: 'context',
    description: 'Fallback trigger: restart after this many tool calls in one session, whatever the context figure.',
  },
  context_window: {
    kind: 'integer', default: undefined, min: 1000, flag: '--context-window', group: 'context',
    description: "Override the model's context window in tokens (otherwise known from the model name).",
  },
  max_restarts: {
    kind: 'integer', default: 3, min: 0, flag: '--max-restarts', group: 'limits',
    description: 'Context restarts allowed per phase. 0 is one-shot mode: a crossing is reported, never acted on.',
  },
  max_retries: {
    kind: 'integer', default: 2, min: 0, flag: '--max-retries', group: 'limits',
    description: 'Extra sessions allowed per phase after a failure (failed gates, no completion signal, a crash).',
  },
  session_timeout: {
    kind: 'duration', default: undefined, min: 1000, flag: '--session-timeout', group: 'limits',
    description: 'Wall-clock limit for one agent session (e.g. 45m, 2h). Unset: no limit.',
  },
  stop_grace: {
    kind: 'duration', default: 5000, min: 100, group: 'limits',
    description: 'How long a stopping session gets after SIGINT before SIGTERM, and again before SIGKILL.',
  },
  auto_commit: {
    kind: 'boolean', default: true, flag: '--no-auto-commit', group: 'git',
    description: "Commit the agent's work before each restart and when a phase completes.",
  },
  commit_on_failure: {
    kind: 'boolean', default: false, group: 'git',
    description: "Also commit a phase's work when it finally fails (otherwise it stays in the working tree).",
  },
  allow_dirty: {
    kind: 'boolean', default: false, flag: '--allow-dirty', group: 'git',
    description: 'Start a run even when tracked files have uncommitted changes.',
  },
  model: {
    kind: 'string', default: undefined, flag: '--model', group: 'agent',
    description: "Model passed to claude with --model (unset: claude's default).",
  },
  claude_command: {
    kind: 'string', default: 'claude', group: 'agent',
    description: 'The Claude Code executable (a name on PATH or a path).',
  },
  claude_args: {
    kind: 'string[]', default: [], group: 'agent',
    description: 'Extra arguments for every claude session, e.g. ["--dangerously-skip-permissions"].',
  },
  claude_max_retries: {
    kind: 'integer', default: 2, min: 0, max: 15, group: 'agent',
    description: "Retries the claude CLI makes itself per API call (CLAUDE_CODE_MAX_RETRIES); debussy's recovery handles the rest.",
  },
  api_timeout: {
    kind: 'duration', default: 120_000, min: 1000, group: 'agent',
    description: 'Time the claude CLI waits for API response headers (API_TIMEOUT_MS).',
  },
  gate_timeout: {
    kind: 'duration', default: 600_000, min: 1000, group: 'gates',
    description: 'Time limit for each gate command when debussy verifies a phase.',
  },
  gates: {
    kind: 'record', default: {}, group: 'gates',
    description: 'Gate name to shell command, for gates whose plan bullet names no command, e.g. {lint: "npm run lint"}.',
  },
} as const satisfies Record<string, KeyDefinition>;

export type ConfigKey = keyof typeof CONFIG_SCHEMA;

/** The resolved configuration: every key with a value (or undefined where unset). Durations in ms. */
export interface DebussyConfig {
  context_threshold: number;
  tool_call_threshold: number;
  context_window: number | undefined;
  max_restarts: number;
  max_retries: number;
  session_timeout: number | undefined;
  stop_grace: number;
  auto_commit: boolean;
  commit_on_failure: boolean;
  allow_dirty: boolean;
  model: string | undefined;
  claude_command: string;
  claude_args: string[];
  claude_max_retries: number;
  api_timeout: number;
  gate_timeout: number;
  gates: Record<string, string>;
}

// Compile-time check that the schema and the resolved type name the same keys.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const _keysMatch: SameKeys<DebussyConfig, typeof CONFIG_SCHEMA> = true;
void _keysMatch;

export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA) as ConfigKey[];

export function definitionOf(key: ConfigKey): KeyDefinition {
  return CONFIG_SCHEMA[key];
}

export function defaultConfig(): DebussyConfig {
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const def = definitionOf(key).default;
    out[key] = Array.isArray(def) ? [...(def as unknown[])] : typeof def === 'object' && def !== null ? { ...def } : def;
  }
  return out as unknown as DebussyConfig;
}
