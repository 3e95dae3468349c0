/**
 * Everything a gemini session is started with, from debussy's settings: the command line, the
 * environment, and the settings debussy adds to the user's own (its BeforeTool stop guard, the
 * history compression moved above debussy's stop point). Pure but for readProjectSettings;
 * measured with gemini 0.61.0 (test/harness/gemini-*.test.ts).
 *
 * Why a settings file of the session's own: gemini reads settings from its system file (which it
 * skips unless root owns it and every folder above it), the user's ~/.gemini/settings.json, and the
 * project's .gemini/settings.json; it has no flag for more. debussy touches neither the user's home
 * nor the project: it points GEMINI_CLI_HOME at a folder of the session's whose `.gemini` holds the
 * user's settings with debussy's added, and links to everything else of the user's `.gemini`
 * (credentials, chats, projects), so gemini finds what it always finds (gemini-home.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isRecord, recordField, type JsonRecord } from '../json-fields.js';
import { stopGuardEndCommand, type HookMatcher } from '../stop-guard.js';

export type PermissionModeName = 'default' | 'acceptEdits' | 'auto' | 'bypassPermissions' | 'dontAsk' | 'plan';

export interface GeminiPermissions {
  /** gemini's --approval-mode. */
  approvalMode: 'yolo' | 'plan';
  /** What the mapping cannot express, for a warning. */
  notes: string[];
}

/**
 * debussy's permission_mode in gemini's terms. Unattended, gemini runs a tool only in yolo mode
 * (its other modes ask, and `-p` cannot answer: the call fails), and it has no sandbox that works
 * without a container runtime; so every mode but plan is yolo, and the ones that meant less than
 * "every tool" say so.
 */
export function geminiPermissions(mode: PermissionModeName | undefined, rules: { allowed: number; disallowed: number } = { allowed: 0, disallowed: 0 }): GeminiPermissions {
  const notes: string[] = [];
  if (rules.allowed + rules.disallowed > 0) notes.push('gemini has no per-tool rules debussy can pass: allowed_tools and disallowed_tools do not apply to gemini sessions');
  switch (mode) {
    case 'plan':
      return { approvalMode: 'plan', notes };
    case undefined:
    case 'bypassPermissions':
      return { approvalMode: 'yolo', notes };
    case 'default':
    case 'dontAsk':
    case 'acceptEdits':
    case 'auto':
      notes.push(`gemini cannot approve tool calls one by one unattended: permission_mode ${mode} runs as --approval-mode yolo (every tool call runs)`);
      return { approvalMode: 'yolo', notes };
  }
}

export interface GeminiWarningConfig {
  permission_mode?: PermissionModeName | undefined;
  allowed_tools: readonly string[];
  disallowed_tools: readonly string[];
  context_threshold: number;
  max_context_tokens: number;
  context_window: number | undefined;
  model: string | undefined;
}

/**
 * What a run with gemini warns of before its first session: the permission settings gemini cannot
 * honour, and a compression threshold in the project's own `.gemini/settings.json` (`projectSettings`,
 * its text), which gemini applies over the user's settings and so over debussy's.
 */
export function geminiWarnings(config: GeminiWarningConfig, projectSettings?: string): string[] {
  const notes = geminiPermissions(config.permission_mode, { allowed: config.allowed_tools.length, disallowed: config.disallowed_tools.length }).notes;
  const parsed = projectSettings === undefined ? undefined : parseUserSettings(projectSettings);
  const model = parsed !== undefined && 'settings' in parsed ? recordField(parsed.settings, 'model') : undefined;
  const theirs = model?.compressionThreshold;
  const window = config.context_window ?? geminiWindowForModel(config.model);
  const ours = compressionThresholdFor(stopTokensFor(config, window), window);
  if (typeof theirs === 'number' && ours !== undefined && theirs < ours) {
    notes.push(`the project's .gemini/settings.json sets model.compressionThreshold ${theirs}, which gemini applies over debussy's ${ours}: gemini may compress its history before debussy stops the session`);
  }
  return notes;
}

/** Windows of the models gemini 0.61.0 runs (its tokenLimit), in tokens. */
const MODEL_WINDOWS: ReadonlyArray<[RegExp, number]> = [[/^gemini-(?:2\.5|3(?:\.\d)?)-(?:pro|flash)(?:-lite)?(?:-preview)?(?:-[\w-]+)?$/, 1_048_576]];

/** Every model gemini 0.61.0 picks by itself (auto, pro, flash) has this window. */
const DEFAULT_MODEL_WINDOW = 1_048_576;

/** The model's window (unset: gemini's own choice); undefined for a model the table does not know (context_window decides). */
export function geminiWindowForModel(model: string | undefined): number | undefined {
  const name = model?.trim() ?? '';
  // Unset, or one of its routing aliases (auto, auto-gemini-2.5, pro, flash, ...): gemini chooses among models of one window.
  if (name === '' || /^(?:auto(?:-[\w.-]+)?|pro|flash|flash-lite)$/.test(name)) return DEFAULT_MODEL_WINDOW;
  return MODEL_WINDOWS.find(([pattern]) => pattern.test(name))?.[1];
}

/** Where debussy stops a session: context_threshold of the window, or max_context_tokens when lower. */
export function stopTokensFor(config: { context_threshold: number; max_context_tokens: number }, window: number | undefined): number | undefined {
  if (window === undefined) return undefined;
  const byThreshold = Math.floor((window * config.context_threshold) / 100);
  return config.max_context_tokens > 0 ? Math.min(byThreshold, config.max_context_tokens) : byThreshold;
}

/** gemini's default model.compressionThreshold: it summarises the history at half the window. */
export const GEMINI_DEFAULT_COMPRESSION = 0.5;
const COMPRESSION_MARGIN = 0.05;

/**
 * model.compressionThreshold for a session that debussy stops at `stopTokens` of a `window`-token
 * model: a margin above the stop, never below gemini's default; 1 (never) when the stop is at the
 * window or past it. gemini's PreCompress hook cannot refuse a compression, so debussy stops first.
 */
export function compressionThresholdFor(stopTokens: number | undefined, window: number | undefined): number | undefined {
  if (stopTokens === undefined || window === undefined || window <= 0) return undefined;
  const fraction = stopTokens / window + COMPRESSION_MARGIN;
  return fraction >= 1 ? 1 : Math.max(GEMINI_DEFAULT_COMPRESSION, Math.ceil(fraction * 100) / 100);
}

/** debussy's BeforeTool guard: once the stop file exists, the next tool call ends gemini's run. */
export function debussyGeminiHooks(stopFile: string): Record<string, HookMatcher[]> {
  return { BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: stopGuardEndCommand(stopFile) }] }] };
}

/** The user's settings with debussy's added: its hooks after the user's own, the compression threshold replaced. */
export function sessionSettings(user: JsonRecord | undefined, added: { stopFile: string; compressionThreshold?: number }): JsonRecord {
  const base = user ?? {};
  const hooks = recordField(base, 'hooks') ?? {};
  const ours = debussyGeminiHooks(added.stopFile);
  const mergedHooks: JsonRecord = { ...hooks };
  for (const [event, matchers] of Object.entries(ours)) {
    const existing = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    mergedHooks[event] = [...existing, ...matchers];
  }
  const model = recordField(base, 'model') ?? {};
  return {
    ...base,
    hooks: mergedHooks,
    ...(added.compressionThreshold === undefined ? {} : { model: { ...model, compressionThreshold: added.compressionThreshold } }),
  };
}

/** The user's settings file as JSON (gemini allows comments: those are stripped), or why it could not be read. */
export function parseUserSettings(text: string): { settings: JsonRecord } | { problem: string } {
  try {
    const value = JSON.parse(stripJsonComments(text)) as unknown;
    return isRecord(value) ? { settings: value } : { problem: 'it is not a JSON object' };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** `//` and `/* *\/` comments outside strings removed. */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) i++;
      i++;
    } else out += ch;
  }
  return out;
}

export interface GeminiArgsInput {
  model?: string;
  /** A new session's id (gemini's --session-id), or the one to resume (--resume). */
  sessionId: string;
  resume: boolean;
  approvalMode: GeminiPermissions['approvalMode'];
  /** The user's own flags (gemini_args), after debussy's. */
  extraArgs?: readonly string[];
}

/**
 * `gemini --output-format stream-json ...`: the prompt goes on stdin (not in argv, where a long
 * checkpoint could pass the system's limit), which also makes the run headless.
 */
export function geminiArgs(input: GeminiArgsInput): string[] {
  return [
    '--output-format', 'stream-json',
    ...(input.model === undefined || input.model === '' ? [] : ['--model', input.model]),
    ...(input.resume ? ['--resume', input.sessionId] : ['--session-id', input.sessionId]),
    '--approval-mode', input.approvalMode,
    '--skip-trust',
    ...(input.extraArgs ?? []),
  ];
}

/**
 * gemini's environment: no relaunch (the relaunching parent neither forwards nor obeys signals, and
 * a SIGKILL leaves its child running), and its home pointed at the session's.
 */
export function geminiEnv(base: Record<string, string>, sessionHome: string): Record<string, string> {
  return { ...base, GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_HOME: sessionHome };
}

/** The project's own `.gemini/settings.json` as text, when it has one (gemini reads it in a trusted folder). */
export function readProjectSettings(root: string): string | undefined {
  try {
    return readFileSync(path.join(root, '.gemini', 'settings.json'), 'utf8');
  } catch {
    return undefined;
  }
}
