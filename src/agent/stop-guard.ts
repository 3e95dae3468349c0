/**
 * A PreToolUse hook that blocks every tool once a stop file exists, for every agent that runs
 * hooks. The runner stops the agent (claude with SIGINT, codex with turn/interrupt), but the
 * model's next response could arrive and start a tool before the stop lands; once the stop is
 * decided the file is created and such a tool is refused (exit 2: the CLI shows the hook's stderr
 * to the model instead of running the tool). A hook costs one `sh` per tool call. Each driver
 * installs it its own way (claude/session-settings.ts, codex/codex-command.ts, gemini/gemini-launch.ts).
 * codex's guard is call-aware: the stop file lists the calls that may still run (stopGuardByCallCommand).
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shellQuote } from '../text/shell-quote.js';

/** A hook as both Claude Code and codex take it: a command run for the tool calls its matcher names. */
export interface CommandHook {
  type: 'command';
  command: string;
}
export interface HookMatcher {
  matcher?: string;
  hooks: CommandHook[];
}

const STOP_REFUSAL = 'debussy: this session is stopping; do not start new work';

/** The guard's command: refuses (exit 2, the reason on stderr) once `stopFile` exists. */
export function stopGuardCommand(stopFile: string): string {
  return `test -e ${shellQuote(stopFile)} && { echo ${shellQuote(STOP_REFUSAL)} >&2; exit 2; }; exit 0`;
}

/** The call ids a stop file may list: anything else is never let through (only ever the safe side). */
export const LISTABLE_CALL_ID = /^[A-Za-z0-9_.:-]+$/;

/**
 * A call-aware guard (codex's): once `stopFile` exists, it refuses every tool call whose id the
 * file does not list, one per line. The id is the hook input's `tool_use_id`, read with sed (no jq,
 * no node: one `sh` per tool call): the input is one line of compact JSON whose last key is
 * `tool_use_id` (codex 0.171.0, measured), so the id is taken only from a `"tool_use_id":"..."}`
 * that ends the line after a `,` or `{`; a quote inside a string is escaped, so the tool's own
 * input cannot forge it. No id found: refused.
 */
export function stopGuardByCallCommand(stopFile: string): string {
  const file = shellQuote(stopFile);
  const idOf = `sed -n 's/.*[,{]"tool_use_id":"\\([A-Za-z0-9_.:-]\\{1,\\}\\)"}[[:space:]]*$/\\1/p'`;
  return `test -e ${file} || exit 0; id=$(${idOf}); test -n "$id" && grep -qxF -e "$id" ${file} && exit 0; echo ${shellQuote(STOP_REFUSAL)} >&2; exit 2`;
}

/**
 * The guard for an agent whose hook can end its whole loop (gemini's BeforeTool): once `stopFile`
 * exists it prints `{"continue": false, "stopReason": ...}`, and the CLI runs no tool and ends the
 * run with a result, instead of handing the refusal to the model as exit 2 would.
 */
export function stopGuardEndCommand(stopFile: string): string {
  const answer = JSON.stringify({ continue: false, stopReason: STOP_REFUSAL });
  return `test -e ${shellQuote(stopFile)} && { printf '%s\\n' ${shellQuote(answer)}; exit 0; }; exit 0`;
}

export interface StopGuard {
  stopFile: string;
  /** Created by the session's SessionStart hook: its hooks run (hooks-off.ts). */
  answerFile: string;
  /**
   * From now on, every tool call is blocked, but those of `allowedCallIds` for a call-aware guard
   * (stopGuardByCallCommand; the others ignore the list). Called again, it replaces the list.
   */
  arm(allowedCallIds?: readonly string[]): void;
  /** Whether the SessionStart hook answered: false once claude has started, and its hooks are off. */
  answered(): boolean;
  dispose(): void;
}

export function createStopGuard(sessionMarker: string): StopGuard {
  const stopFile = path.join(tmpdir(), `debussy-stop-${sessionMarker}`);
  const answerFile = path.join(tmpdir(), `debussy-hooks-${sessionMarker}`);
  return {
    stopFile,
    answerFile,
    answered: () => existsSync(answerFile),
    arm(allowedCallIds = []) {
      const next = `${stopFile}.next`;
      try {
        // Written aside, then renamed over: a hook never reads half a list.
        writeFileSync(next, stopFileText(allowedCallIds));
        renameSync(next, stopFile);
      } catch {
        // Without the file the guard is off; the signals still stop the session.
      }
    },
    dispose() {
      rmSync(stopFile, { force: true });
      rmSync(`${stopFile}.next`, { force: true });
      rmSync(answerFile, { force: true });
    },
  };
}

/** A stop file's text: the listable ids, one per line. */
export function stopFileText(allowedCallIds: readonly string[]): string {
  return allowedCallIds
    .filter((id) => LISTABLE_CALL_ID.test(id))
    .map((id) => `${id}\n`)
    .join('');
}
