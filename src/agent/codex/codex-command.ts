/**
 * How debussy starts codex for a session: `codex app-server` with debussy's hooks passed as `-c`
 * overrides (the user's CODEX_HOME and config.toml are read as they are, never written), and the
 * thread settings that map debussy's permission_mode onto codex's sandbox and approval policy.
 * Pure; measured with codex 0.171.0 (test/harness/codex-*.test.ts).
 */
import type { ApprovalPolicy, SandboxMode, ThreadSettings } from './app-server-protocol.js';
import type { JsonRecord } from '../json-fields.js';
import { stopGuardByCallCommand, type HookMatcher } from '../stop-guard.js';

export type TomlValue = string | number | boolean | readonly TomlValue[] | { readonly [key: string]: TomlValue };

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A value in TOML's inline syntax, as `codex -c key=VALUE` parses it. */
export function tomlValue(value: TomlValue): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a TOML number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${(value as readonly TomlValue[]).map(tomlValue).join(',')}]`;
  const table = value as { readonly [key: string]: TomlValue };
  return `{${Object.entries(table)
    .map(([key, v]) => `${BARE_KEY.test(key) ? key : tomlString(key)}=${tomlValue(v)}`)
    .join(',')}}`;
}

/** `-c key=value` pairs for codex's command line. */
export function configFlags(overrides: Readonly<Record<string, TomlValue>>): string[] {
  return Object.entries(overrides).flatMap(([key, value]) => ['-c', `${key}=${tomlValue(value)}`]);
}

export type CodexHooks = Record<string, HookMatcher[]>;

/**
 * debussy's PreToolUse guard for codex: once the stop file exists, every tool call it does not list
 * is refused (exit 2: codex does not run it and answers the model "Command blocked by PreToolUse
 * hook: <stderr>"). The hook's input names the call (`tool_use_id`, the call_id; measured).
 * codex runs hooks only when trusted; the thread's `bypass_hook_trust` (threadConfig) trusts them.
 * codex's PreCompact hook cannot refuse a compaction (measured), so none is installed: debussy
 * stops a session before codex would compact.
 */
export function debussyCodexHooks(stopFile: string): CodexHooks {
  return { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: stopGuardByCallCommand(stopFile) }] }] };
}

export interface AppServerCommandInput {
  /** The codex command (`codex` on PATH, or the configured one). */
  command: string;
  hooks?: CodexHooks;
  /** The user's own `-c` overrides and flags (agent_args), after debussy's. */
  extraArgs?: readonly string[];
}

export interface AgentCommandLine {
  command: string;
  args: string[];
}

/** `codex app-server -c hooks.X=[...] ...`: one process per session, spoken to over stdio. */
export function appServerCommand(input: AppServerCommandInput): AgentCommandLine {
  const hookFlags = Object.entries(input.hooks ?? {}).flatMap(([event, matchers]) => configFlags({ [`hooks.${event}`]: matchers as unknown as TomlValue }));
  return { command: input.command, args: ['app-server', ...hookFlags, ...(input.extraArgs ?? [])] };
}

/**
 * Thread config debussy sets for every session: its hooks run without a trust prompt, and commands
 * run in a plain shell: a login shell (`bash -lc`, what the model asks for by default) reads
 * /etc/profile, which resets PATH and hides the `debussy` shim (measured: "debussy: command not found").
 */
export function threadConfig(): JsonRecord {
  return { bypass_hook_trust: true, allow_login_shell: false };
}

export type PermissionModeName = 'default' | 'acceptEdits' | 'auto' | 'bypassPermissions' | 'dontAsk' | 'plan';

export interface CodexPermissions {
  /** Unset: codex's own config (the user's config.toml) decides; approval requests are declined. */
  sandbox?: SandboxMode;
  approvalPolicy?: ApprovalPolicy;
  /** What the mapping cannot express, for a warning. */
  notes: string[];
}

/**
 * debussy's permission_mode in codex's terms. Unattended, approval is always "never" (a refused
 * command fails back to the model). workspace-write lets the agent write in its cwd (and /tmp) but
 * keeps `.git` read-only and the network off; bypassPermissions is
 * `--dangerously-bypass-approvals-and-sandbox`; plan is read-only.
 */
/** What a run with codex warns of before its first session: the permission settings codex cannot honour. */
export function codexWarnings(config: { permission_mode?: PermissionModeName | undefined; allowed_tools: readonly string[]; disallowed_tools: readonly string[] }): string[] {
  return codexPermissions(config.permission_mode, { allowed: config.allowed_tools.length, disallowed: config.disallowed_tools.length }).notes;
}

export function codexPermissions(mode: PermissionModeName | undefined, rules: { allowed: number; disallowed: number } = { allowed: 0, disallowed: 0 }): CodexPermissions {
  const notes: string[] = [];
  if (rules.allowed + rules.disallowed > 0) notes.push('codex has no per-tool rules: allowed_tools and disallowed_tools do not apply to codex sessions');
  switch (mode) {
    case undefined:
      return { notes };
    case 'bypassPermissions':
      return { sandbox: 'danger-full-access', approvalPolicy: 'never', notes };
    case 'plan':
      return { sandbox: 'read-only', approvalPolicy: 'never', notes };
    case 'auto':
      notes.push("codex has no classifier mode: permission_mode auto runs as acceptEdits (codex's workspace-write sandbox)");
      return { sandbox: 'workspace-write', approvalPolicy: 'never', notes };
    case 'default':
    case 'dontAsk':
    case 'acceptEdits':
      return { sandbox: 'workspace-write', approvalPolicy: 'never', notes };
  }
}

/** The thread/start (or thread/resume) settings of a session. */
export function threadSettings(input: { cwd: string; model?: string; permissions: CodexPermissions; developerInstructions?: string }): ThreadSettings {
  return {
    cwd: input.cwd,
    ...(input.permissions.approvalPolicy === undefined ? {} : { approvalPolicy: input.permissions.approvalPolicy }),
    ...(input.permissions.sandbox === undefined ? {} : { sandbox: input.permissions.sandbox }),
    config: threadConfig(),
    ...(input.model === undefined || input.model === '' ? {} : { model: input.model }),
    ...(input.developerInstructions === undefined ? {} : { developerInstructions: input.developerInstructions }),
  };
}
