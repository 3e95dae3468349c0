/**
 * The one configuration schema: every key's type, default, bounds, command-line flag and meaning.
 * Defaults, validation, `debussy config`, the `run` flags, `debussy init`'s commented config file
 * and docs/configuration.md all come from this table, so none of them can drift from the others.
 */

export type ValueKind = 'number' | 'integer' | 'boolean' | 'string' | 'string[]' | 'record' | 'duration' | 'size';

export interface KeyDefinition {
  kind: ValueKind;
  /** Undefined means "not set" (e.g. `model`: the CLI's own default). */
  default: unknown;
  min?: number;
  max?: number;
  /** Allowed string values. */
  choices?: readonly string[];
  /** A string that must be an http(s) URL (`new URL` reads it, the scheme is http or https). */
  url?: true;
  /** The `debussy run` flag that overrides it, if any. */
  flag?: string;
  /** The flag's --help text when the description reads wrong for it (a --no- flag turns the key off). */
  flagHelp?: string;
  /** One-line meaning, for docs and --help. */
  description: string;
  /** Which group it belongs to in docs and the generated config file. */
  group: 'context' | 'limits' | 'git' | 'agent' | 'permissions' | 'gates' | 'recovery' | 'notify';
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
  max_context_tokens: {
    kind: 'integer', default: 160_000, min: 0, flag: '--max-context-tokens', group: 'context',
    description: "Absolute cap beside context_threshold: a session is stopped at whichever comes first. The default is the 80% point of a 200,000-token window, so a 1M-token window restarts at 160,000 tokens, not 800,000 (models degrade long before a 1M window is full: restart-flow.md in the docs debussy ships). 0: no cap.",
  },
  max_restarts: {
    kind: 'integer', default: 3, min: 0, flag: '--max-restarts', group: 'limits',
    description: 'Context restarts allowed per phase. 0 is one-shot mode: a crossing is reported, never acted on.',
  },
  max_parallel: {
    kind: 'integer', default: 1, min: 1, max: 32, flag: '--parallel', group: 'limits',
    description: 'Phases run at the same time, each in its own git worktree and branch, merged into the run\'s branch in dependency order (parallel.md in the docs debussy ships). 1: one phase at a time in the work tree.',
  },
  worktree_setup: {
    kind: 'string', default: undefined, group: 'limits',
    description: 'With max_parallel above 1 (not in --queue workers\' checkouts: queue.md): a shell command run in each new phase worktree before its phase starts (with gate_timeout), for what git does not track and the gates need, e.g. "npm ci" or "cp $DEBUSSY_PROJECT_ROOT/.env . && npm ci" (DEBUSSY_PROJECT_ROOT is your work tree). A failure fails the phase, naming the command and its output. Unset: nothing runs.',
  },
  max_retries: {
    kind: 'integer', default: 2, min: 0, flag: '--max-retries', group: 'limits',
    description: 'Extra sessions allowed per phase after a failure (failed gates, no completion signal, a crash).',
  },
  session_timeout: {
    kind: 'duration', default: undefined, min: 1000, flag: '--session-timeout', group: 'limits',
    description: 'Wall-clock limit for one agent session (e.g. 45m, 2h). Unset: no limit.',
  },
  max_cost: {
    kind: 'number', default: undefined, min: 0.01, flag: '--max-cost', group: 'limits',
    description: 'Budget of a run in USD, counting the runs it resumes: reaching it stops the session, commits the work and exits 9; `debussy run` goes on once it is raised (budgets.md in the docs debussy ships). Unset: no budget.',
  },
  max_phase_cost: {
    kind: 'number', default: undefined, min: 0.01, flag: '--max-phase-cost', group: 'limits',
    description: 'Budget of one phase in USD, like max_cost. Unset: no budget.',
  },
  prices: {
    kind: 'record', default: {}, group: 'limits',
    description: 'Model name to "input / output / cache write / cache read" in USD per million tokens, over the shipped table (claude\'s own), e.g. {"claude-opus-4-8": "5 / 25 / 6.25 / 0.5"}.',
  },
  stop_grace: {
    kind: 'duration', default: 5000, min: 100, group: 'limits',
    description: 'How long a stopping session gets after SIGINT before SIGTERM, and again before SIGKILL.',
  },
  auto_commit: {
    kind: 'boolean', default: true, flag: '--no-auto-commit', group: 'git',
    flagHelp: "do not commit the agent's work: it stays uncommitted in the working tree for you to review (sets auto_commit to false; by default debussy commits before each restart and when a phase completes)",
    description: "Commit the agent's work before each restart and when a phase completes.",
  },
  commit_on_failure: {
    kind: 'boolean', default: false, group: 'git',
    description: "Also commit a phase's work when it finally fails (otherwise it stays in the working tree).",
  },
  commit_secrets: {
    kind: 'boolean', default: false, group: 'git',
    description: 'Also commit files the agent wrote that hold credentials (.env files, private keys, credential stores by name; .npmrc, docker and kube configs when a secret is in them); off: they stay uncommitted and a warning names them.',
  },
  max_commit_file_size: {
    kind: 'size', default: 5 * 1024 ** 2, flag: '--max-commit-file-size', group: 'git',
    description: 'Largest file the agent wrote that debussy commits (e.g. 5MB, 500KB; 1 MB = 1,048,576 bytes): a larger one stays uncommitted and a warning names it. A file git stores through a filter (Git LFS) is committed whatever its size. 0: no limit.',
  },
  allow_dirty: {
    kind: 'boolean', default: false, flag: '--allow-dirty', group: 'git',
    description: 'Start a run even when tracked files have uncommitted changes.',
  },
  model: {
    kind: 'string', default: undefined, flag: '--model', group: 'agent',
    description: "Model passed to claude with --model (unset: claude's default).",
  },
  agent: {
    kind: 'string', default: 'claude', choices: ['claude', 'codex', 'gemini'], flag: '--agent', group: 'agent',
    description: 'The agent CLI every session runs: claude (Claude Code), codex (OpenAI Codex CLI, through `codex app-server`) or gemini (Google Gemini CLI). See docs/agents.md for what each can do.',
  },
  claude_command: {
    kind: 'string', default: 'claude', group: 'agent',
    description: 'The Claude Code executable (a name on PATH or a path).',
  },
  claude_args: {
    kind: 'string[]', default: [], group: 'agent',
    description: 'Extra arguments for every claude session, e.g. ["--max-turns", "200"]. For permissions use permission_mode / allowed_tools. A --settings file or JSON given here is merged with debussy\'s own hooks into the one --settings claude gets.',
  },
  codex_command: {
    kind: 'string', default: 'codex', group: 'agent',
    description: 'The Codex CLI executable (a name on PATH or a path), for agent: codex.',
  },
  codex_args: {
    kind: 'string[]', default: [], group: 'agent',
    description: 'Extra arguments for every `codex app-server`, e.g. ["-c", "model_reasoning_effort=high"], for agent: codex.',
  },
  gemini_command: {
    kind: 'string', default: 'gemini', group: 'agent',
    description: 'The Gemini CLI executable (a name on PATH or a path), for agent: gemini.',
  },
  gemini_args: {
    kind: 'string[]', default: [], group: 'agent',
    description: 'Extra arguments for every gemini session, e.g. ["--include-directories", "../lib"], for agent: gemini.',
  },
  claude_max_retries: {
    kind: 'integer', default: 2, min: 0, max: 15, group: 'agent',
    description: "Retries the claude CLI makes itself per API call (CLAUDE_CODE_MAX_RETRIES); debussy's recovery handles the rest.",
  },
  api_timeout: {
    kind: 'duration', default: 120_000, min: 1000, group: 'agent',
    description: 'Time the claude CLI waits for API response headers (API_TIMEOUT_MS).',
  },
  permission_mode: {
    kind: 'string', default: undefined, choices: ['default', 'acceptEdits', 'auto', 'bypassPermissions', 'dontAsk', 'plan'], flag: '--permission-mode', group: 'permissions',
    description: "Claude Code's permission mode for every session (--permission-mode). Unset: claude's own settings decide; in -p mode a call that needs approval is refused.",
  },
  allowed_tools: {
    kind: 'string[]', default: [], flag: '--allowed-tools', group: 'permissions',
    description: 'Tool rules claude may use without asking (--allowedTools), e.g. ["Bash(npm test:*)", "Edit"]. debussy adds its own done/progress calls.',
  },
  disallowed_tools: {
    kind: 'string[]', default: [], group: 'permissions',
    description: 'Tool rules claude must refuse (--disallowedTools), e.g. ["Bash(git push:*)"]; they win over allowed_tools and the mode.',
  },
  gate_timeout: {
    kind: 'duration', default: 600_000, min: 1000, group: 'gates',
    description: 'Time limit for each gate command when debussy verifies a phase.',
  },
  gates: {
    kind: 'record', default: {}, group: 'gates',
    description: 'Gate name to shell command, for gates whose plan bullet names no command, e.g. {lint: "npm run lint"}.',
  },
  update_plan_status: {
    kind: 'boolean', default: false, group: 'gates',
    description: "Update the phase's Status cell in MASTER_PLAN.md as phases start and end (nothing else in the file changes).",
  },
  baseline_gates: {
    kind: 'boolean', default: true, group: 'gates',
    description: "Run a phase's gates once before its first session (each with gate_timeout), so a gate that already failed the same way (the same failing tests or error lines) is reported as inherited; one that fails on something new is the phase's.",
  },
  inherited_failures: {
    kind: 'string', default: 'block', choices: ['block', 'warn'], flag: '--inherited-failures', group: 'gates',
    description: "Whether a gate that failed before the phase started and still fails keeps the phase from completing (block), or only warns (warn). block: many gates fail before their phase by design, since they check what it builds.",
  },
  regression_gates: {
    kind: 'string', default: 'end', choices: ['off', 'end', 'each'], flag: '--regression-gates', group: 'gates',
    description: 'Run the gates of phases completed earlier again: after each phase (each: the phase that broke one goes back to remediation), once at the end of the run (end: the run fails naming the gate and the phases since), or never (off).',
  },
  notes_sections: {
    kind: 'string[]', default: [], group: 'gates',
    description: 'Headings every notes file a phase writes should contain; a missing one is a warning.',
  },
  stall_timeout: {
    kind: 'duration', default: 300_000, min: 1000, flag: '--stall-timeout', group: 'recovery',
    description: 'A session that sends no event for this long while waiting on the model (no tool running) is ended as stalled.',
  },
  fallback_models: {
    kind: 'string[]', default: [], group: 'recovery',
    description: 'Models to switch to, in order, when the current one is overloaded or keeps failing.',
  },
  fallback_after: {
    kind: 'integer', default: 2, min: 1, group: 'recovery',
    description: 'Overloaded (529) sessions in a row before switching to the next fallback model.',
  },
  allow_skip: {
    kind: 'boolean', default: false, group: 'recovery',
    description: 'When recovery gives up on a phase, skip it (its dependents are skipped too) instead of failing it.',
  },
  backoff_base: {
    kind: 'duration', default: 2000, min: 1, group: 'recovery',
    description: 'First retry wait; doubles with each failure in a row (with jitter).',
  },
  backoff_max: {
    kind: 'duration', default: 120_000, min: 1, group: 'recovery',
    description: 'Cap on the computed backoff. A wait the server asks for (retry-after, reset time) may be longer.',
  },
  backoff_jitter: {
    kind: 'string', default: 'full', choices: ['full', 'decorrelated'], group: 'recovery',
    description: 'Jitter strategy of the backoff.',
  },
  max_rate_limit_waits: {
    kind: 'integer', default: 10, min: 0, group: 'recovery',
    description: 'Rate-limit waits in a row before giving up on the phase (they do not use max_retries or max_restarts).',
  },
  max_wait: {
    kind: 'duration', default: 21_600_000, min: 1000, group: 'recovery',
    description: 'Longest single wait accepted: a usage-limit reset further away ends the run (exit 10) with the time to resume and the command.',
  },
  failure_threshold: {
    kind: 'integer', default: 5, min: 1, group: 'recovery',
    description: 'Circuit breaker: failed sessions within monitor_window that open the circuit.',
  },
  monitor_window: {
    kind: 'duration', default: 60_000, min: 1000, group: 'recovery',
    description: 'Circuit breaker: the window in which failures are counted.',
  },
  reset_timeout: {
    kind: 'duration', default: 30_000, min: 1, group: 'recovery',
    description: 'Circuit breaker: how long an open circuit waits before trying again (half-open).',
  },
  half_open_successes: {
    kind: 'integer', default: 3, min: 1, group: 'recovery',
    description: 'Circuit breaker: good sessions while half-open before the circuit closes.',
  },
  circuit_max_trips: {
    kind: 'integer', default: 3, min: 0, group: 'recovery',
    description: 'The run stops (exit 4) when the circuit opens more than this many times.',
  },
  max_crashes: {
    kind: 'integer', default: 3, min: 0, group: 'recovery',
    description: 'Agent crashes of one phase allowed within crash_window; one more stops automatic restarts (exit 4).',
  },
  crash_window: {
    kind: 'duration', default: 600_000, min: 1000, group: 'recovery',
    description: 'The window of the crash-loop limit.',
  },
  notify_desktop: {
    kind: 'boolean', default: true, group: 'notify',
    description: 'Desktop notification when debussy gives up, where notify-send or osascript is available.',
  },
  notify_webhook: {
    kind: 'string', url: true, default: undefined, group: 'notify',
    description: 'An http:// or https:// URL that receives a POST when debussy gives up on a phase or a run.',
  },
  notify_webhook_format: {
    kind: 'string', default: 'ntfy', choices: ['ntfy', 'json'], group: 'notify',
    description: 'Webhook payload: ntfy-style text with Title/Priority/Tags headers, or a generic JSON object.',
  },
  notify_webhook_timeout: {
    kind: 'duration', default: 10_000, min: 100, group: 'notify',
    description: 'Time limit of the webhook request.',
  },
} as const satisfies Record<string, KeyDefinition>;

export type ConfigKey = keyof typeof CONFIG_SCHEMA;

/** The resolved configuration: every key with a value (or undefined where unset). Durations in ms. */
export interface DebussyConfig {
  context_threshold: number;
  tool_call_threshold: number;
  context_window: number | undefined;
  max_context_tokens: number;
  max_restarts: number;
  max_parallel: number;
  worktree_setup: string | undefined;
  max_retries: number;
  session_timeout: number | undefined;
  max_cost: number | undefined;
  max_phase_cost: number | undefined;
  prices: Record<string, string>;
  stop_grace: number;
  auto_commit: boolean;
  commit_on_failure: boolean;
  commit_secrets: boolean;
  max_commit_file_size: number;
  allow_dirty: boolean;
  model: string | undefined;
  agent: 'claude' | 'codex' | 'gemini';
  claude_command: string;
  claude_args: string[];
  codex_command: string;
  codex_args: string[];
  gemini_command: string;
  gemini_args: string[];
  claude_max_retries: number;
  api_timeout: number;
  permission_mode: 'default' | 'acceptEdits' | 'auto' | 'bypassPermissions' | 'dontAsk' | 'plan' | undefined;
  allowed_tools: string[];
  disallowed_tools: string[];
  gate_timeout: number;
  gates: Record<string, string>;
  update_plan_status: boolean;
  notes_sections: string[];
  baseline_gates: boolean;
  inherited_failures: 'block' | 'warn';
  regression_gates: 'off' | 'end' | 'each';
  stall_timeout: number;
  fallback_models: string[];
  fallback_after: number;
  allow_skip: boolean;
  backoff_base: number;
  backoff_max: number;
  backoff_jitter: 'full' | 'decorrelated';
  max_rate_limit_waits: number;
  max_wait: number;
  failure_threshold: number;
  monitor_window: number;
  reset_timeout: number;
  half_open_successes: number;
  circuit_max_trips: number;
  max_crashes: number;
  crash_window: number;
  notify_desktop: boolean;
  notify_webhook: string | undefined;
  notify_webhook_format: 'ntfy' | 'json';
  notify_webhook_timeout: number;
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
