/**
 * Everything a codex session is started with, from debussy's settings: the command line (the
 * PreToolUse guard as a `-c` override), the thread's settings (model, sandbox, approval, hook
 * trust) and the model's window as codex counts it. Pure.
 */
import type { ThreadSettings } from './app-server-protocol.js';
import { appServerCommand, codexPermissions, debussyCodexHooks, threadSettings, type PermissionModeName } from './codex-command.js';

export interface CodexLaunchInput {
  /** `codex` on PATH, or the configured command. */
  command: string;
  cwd: string;
  /** Unset or empty: the user's codex config decides. */
  model?: string;
  permissionMode?: PermissionModeName;
  /** How many allowed_tools / disallowed_tools rules are set (codex has none: a note says so). */
  toolRules?: { allowed: number; disallowed: number };
  /** The stop guard's file: once it exists, every tool call is refused. */
  stopFile: string;
  /** The user's own flags for `codex app-server` (e.g. `-c model_reasoning_effort="high"`). */
  extraArgs?: readonly string[];
}

export interface CodexLaunch {
  command: string;
  args: string[];
  thread: ThreadSettings;
  /** What debussy's settings mean that codex cannot do, one sentence each (for a warning). */
  notes: string[];
}

export function codexLaunch(input: CodexLaunchInput): CodexLaunch {
  const permissions = codexPermissions(input.permissionMode, input.toolRules);
  const { command, args } = appServerCommand({ command: input.command, hooks: debussyCodexHooks(input.stopFile), ...(input.extraArgs === undefined ? {} : { extraArgs: input.extraArgs }) });
  return {
    command,
    args,
    thread: threadSettings({ cwd: input.cwd, ...(input.model === undefined ? {} : { model: input.model }), permissions }),
    notes: permissions.notes,
  };
}

/**
 * Windows of codex 0.171.0's model catalog (`codex debug models`: context_window), in tokens. codex
 * reports 95% of it as the model's window (effective_context_window_percent; 258,400 for gpt-5.5)
 * and compacts on its own at 90% of it, a compaction debussy cannot refuse.
 */
const CATALOG_WINDOWS: ReadonlyArray<[RegExp, number]> = [
  [/^gpt-6\.[12]-(?:sol|terra)$/, 500_000],
  [/^gpt-(?:5\.5|5\.6-\w+|6(?:\.\d)?-\w+)$/, 272_000],
];
const EFFECTIVE_PERCENT = 95;
const AUTO_COMPACT_PERCENT = 90;

export interface CodexWindow {
  /** The window codex reports (thread/tokenUsage/updated's modelContextWindow): what debussy's threshold applies to. */
  window: number;
  /** The context at which codex compacts by itself: debussy must stop below it. */
  autoCompactAt: number;
}

/** From the window codex reported (modelContextWindow), or the model's catalog window. */
export function codexWindowOf(reportedWindow: number): CodexWindow {
  const full = Math.round((reportedWindow * 100) / EFFECTIVE_PERCENT);
  return { window: reportedWindow, autoCompactAt: Math.floor((full * AUTO_COMPACT_PERCENT) / 100) };
}

/** The model's window before codex reports one; undefined for a model the catalog did not list. */
export function codexWindowForModel(model: string | undefined): CodexWindow | undefined {
  const full = CATALOG_WINDOWS.find(([pattern]) => pattern.test(model?.trim() ?? ''))?.[1];
  return full === undefined ? undefined : codexWindowOf(Math.floor((full * EFFECTIVE_PERCENT) / 100));
}
