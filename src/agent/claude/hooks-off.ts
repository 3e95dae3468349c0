/**
 * What turns Claude Code's hooks off, debussy's own included (its stop guard and compaction guard,
 * session-settings.ts), as far as debussy can see before a session starts. Measured with claude
 * 2.1.332: `--bare` (it sets CLAUDE_CODE_SIMPLE=1) and CLAUDE_CODE_SIMPLE set to 1/true/yes/on skip
 * every hook of the settings and of `--settings`, SDK callback hooks too; `--safe-mode` /
 * CLAUDE_CODE_SAFE_MODE likewise; a settings file can set those variables in its `env`, or
 * `disableAllHooks`, or (managed settings) `allowManagedHooksOnly`. There is no flag that keeps
 * hooks on under bare mode. Each session checks anyway (a SessionStart hook that answers), since
 * claude's default could change, and a managed policy can be out of sight. Reads files only.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { readSettingsValue, resolveSettingsPath, splitSettingsArgs, type ClaudeSettings } from './session-settings.js';

/** How claude reads a boolean variable. */
export function isTruthyVariable(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/** claude reads its own flags only before a `--`. */
function flagGiven(args: readonly string[], flag: string): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes(flag);
}

const MODE_VARIABLES: readonly [string, string][] = [['CLAUDE_CODE_SIMPLE', 'bare mode'], ['CLAUDE_CODE_SAFE_MODE', 'safe mode']];

function readFileSettings(file: string): ClaudeSettings | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ClaudeSettings) : undefined;
  } catch {
    return undefined;
  }
}

function managedSettingsFile(platform: NodeJS.Platform): string | undefined {
  if (platform === 'linux') return '/etc/claude-code/managed-settings.json';
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  return undefined;
}

/** The settings claude loads, in its order (a later one decides a key), each with where it came from. */
function settingsSources(claudeArgs: readonly string[], root: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { where: string; settings: ClaudeSettings }[] {
  const configDir = env.CLAUDE_CONFIG_DIR ?? path.join(homedir(), '.claude');
  const files = [path.join(configDir, 'settings.json'), path.join(root, '.claude', 'settings.json'), path.join(root, '.claude', 'settings.local.json')];
  const sources = files.flatMap((file) => {
    const settings = readFileSettings(file);
    return settings === undefined ? [] : [{ where: file, settings }];
  });
  for (const value of splitSettingsArgs(claudeArgs).values) {
    const read = readSettingsValue(value, root);
    if ('settings' in read) sources.push({ where: value.trim().startsWith('{') ? '--settings in claude_args' : resolveSettingsPath(value, root), settings: read.settings });
  }
  const managed = managedSettingsFile(platform);
  const policy = managed === undefined ? undefined : readFileSettings(managed);
  if (managed !== undefined && policy !== undefined) sources.push({ where: managed, settings: policy });
  return sources;
}

/**
 * Each thing that turns debussy's hooks off, said the way a person would look for it; empty when
 * none does (as far as debussy can see).
 */
export function hooksOffSources(claudeArgs: readonly string[], root: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  const found: string[] = [];
  if (flagGiven(claudeArgs, '--bare')) found.push("--bare in claude_args (Claude Code's bare mode)");
  if (flagGiven(claudeArgs, '--safe-mode')) found.push("--safe-mode in claude_args (Claude Code's safe mode)");
  for (const [name, mode] of MODE_VARIABLES) {
    if (isTruthyVariable(env[name])) found.push(`${name}=${env[name] ?? ''} in the environment (Claude Code's ${mode})`);
  }
  const sources = settingsSources(claudeArgs, root, env, platform);
  const disabling = sources.filter((source) => typeof source.settings.disableAllHooks === 'boolean').at(-1);
  if (disabling?.settings.disableAllHooks === true) found.push(`${disabling.where} sets disableAllHooks`);
  for (const source of sources) {
    const settingsEnv = source.settings.env;
    for (const [name, mode] of MODE_VARIABLES) {
      const value = typeof settingsEnv === 'object' && settingsEnv !== null ? (settingsEnv as Record<string, unknown>)[name] : undefined;
      if (typeof value === 'string' && isTruthyVariable(value)) found.push(`${source.where} sets ${name} in its env (Claude Code's ${mode})`);
    }
    if (source.settings.allowManagedHooksOnly === true) found.push(`${source.where} sets allowManagedHooksOnly`);
  }
  return found;
}

/** What it means for a run, said once: the warning before a run, doctor, and a session whose hooks did not answer. */
export const HOOKS_OFF_MEANING =
  "debussy's hooks are off in its sessions: no stop guard (debussy stops a session by its signals alone: SIGINT, then SIGTERM and SIGKILL) and no PreCompact guard (DISABLE_COMPACT=1 in the session's environment keeps claude from compacting)";

/** What to do about it, said with the meaning wherever hooks are off. */
export const HOOKS_OFF_FIX =
  'to keep them on, take --bare and --safe-mode out of claude_args, unset CLAUDE_CODE_SIMPLE and CLAUDE_CODE_SAFE_MODE, and drop disableAllHooks / allowManagedHooksOnly from the settings named';

/** Bare mode also narrows claude's tools (measured with 2.1.332: its init event lists Bash, Edit and Read only). */
const BARE_TOOLS = "; bare mode also leaves the agent only claude's Bash, Edit and Read tools (no Write, Grep or Glob)";

/**
 * A warning when what claude will load turns every hook off, debussy's included; undefined when
 * nothing debussy can see does.
 */
export function hooksOffWarning(claudeArgs: readonly string[], root: string, env: NodeJS.ProcessEnv): string | undefined {
  const sources = hooksOffSources(claudeArgs, root, env);
  if (sources.length === 0) return undefined;
  const bare = sources.some((source) => source.includes('bare mode'));
  return `${sources.join('; ')}: ${HOOKS_OFF_MEANING}${bare ? BARE_TOOLS : ''}; ${HOOKS_OFF_FIX}`;
}

/** The start of the warning a run records when a session's hooks did not answer (once a run). */
export const HOOKS_DID_NOT_ANSWER = "debussy's hooks did not answer in";

/** The warning for session `sessionIndex` of phase `phaseId`, whose SessionStart hook did not run. */
export function hooksDidNotAnswer(phaseId: string, sessionIndex: number): string {
  return `${HOOKS_DID_NOT_ANSWER} session ${sessionIndex} of phase ${phaseId} (--bare, CLAUDE_CODE_SIMPLE or settings that turn hooks off; \`debussy doctor\` looks for them): ${HOOKS_OFF_MEANING}; ${HOOKS_OFF_FIX}`;
}
