/**
 * The `--settings` a debussy session runs with: the user's own `--settings` from claude_args (a
 * file or inline JSON, as claude reads them), with debussy's hooks added. claude honours only the
 * last `--settings` it is given, so passing debussy's hooks as a second flag would drop the user's
 * settings, or the user's flag would drop debussy's hooks; one merged flag keeps both.
 *
 * debussy's hooks:
 * - SessionStart: creates a file, so debussy knows the session's hooks run (hooks-off.ts).
 * - PreToolUse: once a stop is decided, every tool call is refused but those of the turn the stop
 *   was decided in, by their tool_use_id (stop-guard.ts, claude-session.ts).
 * - PreCompact: Claude Code's own compaction is refused. In `-p` mode it compacts when the user's
 *   settings set an auto-compact window, or after a `prompt is too long` error; a summary written
 *   by the model would replace the phase's context behind debussy's back. Refused, the overflow
 *   ends the session and debussy's own recovery restarts it from a checkpoint (measured with
 *   claude 2.1.197: exit 2 blocks it, the summary request is never sent).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { AgentProcessError } from '../../errors/index.js';
import { shellQuote } from '../../text/shell-quote.js';
import { errorMessage } from '../../errors/error-message.js';
import { stopGuardByCallCommand, type HookMatcher } from '../stop-guard.js';

export type ClaudeSettings = Record<string, unknown>;

export type SessionHooks = Record<string, HookMatcher[]>;

const SETTINGS_FLAG = '--settings';

export const COMPACTION_REFUSAL =
  "debussy: compaction is off in debussy's sessions; when the context is full, debussy restarts the phase from a checkpoint";

/**
 * debussy's hooks for a session whose stop file is `stopFile`; with `answerFile`, a SessionStart
 * hook that creates it, so the session can tell its hooks run (hooks-off.ts). Pure.
 */
export function debussyHooks(stopFile: string, answerFile?: string): SessionHooks {
  const guard = stopGuardByCallCommand(stopFile);
  return {
    ...(answerFile === undefined ? {} : { SessionStart: [{ hooks: [{ type: 'command', command: `: > ${shellQuote(answerFile)}; exit 0` }] }] }),
    PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: guard }] }],
    PreCompact: [{ hooks: [{ type: 'command', command: `echo ${shellQuote(COMPACTION_REFUSAL)} >&2; exit 2` }] }],
  };
}

/** Settings JSON holding debussy's hooks alone (mergeSessionSettings merges them with the user's). */
export function stopGuardSettings(stopFile: string): string {
  return JSON.stringify({ hooks: debussyHooks(stopFile) });
}

/** claude_args without their `--settings` flags, and the flags' values in order. Pure. */
export function splitSettingsArgs(args: readonly string[]): { rest: string[]; values: string[] } {
  const rest: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === SETTINGS_FLAG && i + 1 < args.length) {
      values.push(args[i + 1] ?? '');
      i += 1;
    } else if (arg.startsWith(`${SETTINGS_FLAG}=`)) {
      values.push(arg.slice(SETTINGS_FLAG.length + 1));
    } else {
      rest.push(arg);
    }
  }
  return { rest, values };
}

function isObject(value: unknown): value is ClaudeSettings {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether claude reads the value as inline JSON rather than as a file path (its own rule). */
function isInlineJson(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}');
}

function describeValue(value: string, cwd: string): string {
  return isInlineJson(value) ? 'the inline JSON given to --settings in claude_args' : `the settings file ${resolveSettingsPath(value, cwd)} (--settings in claude_args)`;
}

/** A `--settings` file value as claude resolves it: `~` is the home folder, else relative to `cwd`. */
export function resolveSettingsPath(value: string, cwd: string): string {
  const file = value.trim();
  if (file === '~' || file.startsWith('~/')) return path.join(homedir(), file.slice(1));
  return path.resolve(cwd, file);
}

/** Reads one `--settings` value: the settings, or one line saying what is wrong with it. */
export function readSettingsValue(value: string, cwd: string): { settings: ClaudeSettings } | { problem: string } {
  let text = value;
  if (!isInlineJson(value)) {
    try {
      text = readFileSync(resolveSettingsPath(value, cwd), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { problem: `${describeValue(value, cwd)} cannot be read (${code ?? String(error)})` };
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `${describeValue(value, cwd)} is not valid JSON (${errorMessage(error)})` };
  }
  if (!isObject(parsed)) return { problem: `${describeValue(value, cwd)} is not a JSON object` };
  if (parsed.hooks !== undefined && !isObject(parsed.hooks)) return { problem: `${describeValue(value, cwd)} has "hooks" that is not an object` };
  return { settings: parsed };
}

/**
 * The user's settings (later ones win per key, as if applied in order) with debussy's hooks added
 * after the user's own hooks of each event. Pure.
 */
export function mergeSessionSettings(user: readonly ClaudeSettings[], hooks: SessionHooks): ClaudeSettings {
  const merged: ClaudeSettings = {};
  const mergedHooks: Record<string, unknown[]> = {};
  for (const settings of user) {
    for (const [key, value] of Object.entries(settings)) {
      if (key !== 'hooks') merged[key] = value;
    }
    if (isObject(settings.hooks)) {
      for (const [event, entries] of Object.entries(settings.hooks)) {
        const list: unknown[] = Array.isArray(entries) ? entries : [entries];
        mergedHooks[event] = [...(mergedHooks[event] ?? []), ...list];
      }
    }
  }
  for (const [event, entries] of Object.entries(hooks)) mergedHooks[event] = [...(mergedHooks[event] ?? []), ...entries];
  return { ...merged, hooks: mergedHooks };
}

/** The first problem with the `--settings` values in claude_args, for the check before a run. */
export function userSettingsProblem(claudeArgs: readonly string[], cwd: string): string | undefined {
  for (const value of splitSettingsArgs(claudeArgs).values) {
    const read = readSettingsValue(value, cwd);
    if ('problem' in read) return read.problem;
  }
  return undefined;
}

/**
 * The session's arguments: the user's `--settings` taken out and one merged `--settings` added in
 * their place (at the end). A problem when a user's settings value cannot be used.
 */
export function withSessionSettings(args: readonly string[], cwd: string, hooks: SessionHooks): { args: string[] } | { problem: string } {
  const { rest, values } = splitSettingsArgs(args);
  const user: ClaudeSettings[] = [];
  for (const value of values) {
    const read = readSettingsValue(value, cwd);
    if ('problem' in read) return read;
    user.push(read.settings);
  }
  return { args: [...rest, SETTINGS_FLAG, JSON.stringify(mergeSessionSettings(user, hooks))] };
}

/** A user's settings debussy cannot read: bad config, exit code 2, before anything starts. */
export function settingsError(problem: string): AgentProcessError {
  return new AgentProcessError('E_AGENT_SETTINGS', problem, {
    exitKind: 'usage',
    hint: 'Fix the file or the JSON, or take --settings out of claude_args; debussy merges its hooks into your settings.',
  });
}
