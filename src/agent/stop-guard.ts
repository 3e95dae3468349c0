/**
 * A hook that blocks tools once a stop file exists, for every agent that runs hooks. The runner
 * stops the agent (claude with SIGINT, codex with turn/interrupt, gemini with SIGTERM), but the
 * model's next response could arrive and start a tool before the stop lands, above all when
 * debussy is starved of the CPU; once the stop is decided the file is created and such a tool is
 * refused. Each guard is call-aware: the stop file lists the calls of the stop's own turn, which
 * may still run (claude's and codex's by tool_use_id: stopGuardByCallCommand; gemini's by input:
 * stopGuardEndCommand). A hook costs one `sh` per tool call. Each driver installs it its own way
 * (claude/session-settings.ts, codex/codex-command.ts, gemini/gemini-launch.ts).
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { shellQuote } from '../text/shell-quote.js';
import { besideStopFile, sessionTempFiles, stopGuardPaths } from './session-temp-files.js';

/** A hook as both Claude Code and codex take it: a command run for the tool calls its matcher names. */
export interface CommandHook {
  type: 'command';
  command: string;
}
export interface HookMatcher {
  matcher?: string;
  hooks: CommandHook[];
}

/** What a refused tool call is told: the CLI hands it to the model as the tool's error. */
export const STOP_REFUSAL = 'debussy: this session is stopping; do not start new work';

/** The call ids a stop file may list: anything else is never let through (only ever the safe side). */
export const LISTABLE_CALL_ID = /^[A-Za-z0-9_.:-]+$/;

/**
 * A call-aware guard (claude's and codex's): once `stopFile` exists, it refuses every tool call
 * whose id the file does not list, one per line. The id is the hook input's `tool_use_id`, read
 * with sed (no jq, no node: one `sh` per tool call): the input is one line of compact JSON whose
 * last key is `tool_use_id` (codex 0.171.0, claude 2.1.197 and 2.1.332, measured), so the id is
 * taken only from a `"tool_use_id":"..."}` that ends the line after a `,` or `{`; a quote inside a
 * string is escaped, so the tool's own input cannot forge it. No id found: refused.
 */
export function stopGuardByCallCommand(stopFile: string): string {
  const file = shellQuote(stopFile);
  const idOf = `sed -n 's/.*[,{]"tool_use_id":"\\([A-Za-z0-9_.:-]\\{1,\\}\\)"}[[:space:]]*$/\\1/p'`;
  return `test -e ${file} || exit 0; id=$(${idOf}); test -n "$id" && grep -qxF -e "$id" ${file} && exit 0; echo ${shellQuote(STOP_REFUSAL)} >&2; exit 2`;
}

/**
 * The guard for an agent whose hook can end its whole loop (gemini's BeforeTool), call-aware by
 * the call's input: once `stopFile` exists it lets through only a call whose hook input ends with
 * one of the file's lines, each line at most once (a token directory `<stopFile>.d/<line number>`
 * made with mkdir, which only one process can make), and answers any other call
 * `{"continue": false, "stopReason": ...}`: the CLI runs no tool and ends the run with a result,
 * instead of handing the refusal to the model as exit 2 would. gemini 0.61.0's hook input is one
 * line of compact JSON ending `,"tool_name":...,"tool_input":{...}}`, the input as its stream's
 * tool_use line printed it (measured), and a quote inside a string is escaped, so a tool's own
 * input cannot forge that ending (geminiToolFingerprint). One `sh`, and `cat` once a stop is armed.
 */
export function stopGuardEndCommand(stopFile: string): string {
  const file = shellQuote(stopFile);
  const tokens = shellQuote(besideStopFile(stopFile).tokens);
  const answer = JSON.stringify({ continue: false, stopReason: STOP_REFUSAL });
  return [
    `test -e ${file} || exit 0`,
    'input=$(cat)',
    'n=0',
    `while IFS= read -r allowed; do n=$((n+1)); case $input in *"$allowed") mkdir ${tokens}/$n 2>/dev/null && exit 0;; esac; done < ${file}`,
    `printf '%s\\n' ${shellQuote(answer)}; exit 0`,
  ].join('; ');
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

/** What a stop file may list: codex's call ids by default; anything else is never let through. */
export type ListableEntry = (entry: string) => boolean;
const isListableCallId: ListableEntry = (id) => LISTABLE_CALL_ID.test(id);

export function createStopGuard(sessionMarker: string, listable: ListableEntry = isListableCallId): StopGuard {
  const { stopFile, answerFile } = sessionTempFiles(sessionMarker);
  return {
    stopFile,
    answerFile,
    answered: () => existsSync(answerFile),
    arm(allowedCallIds = []) {
      const beside = besideStopFile(stopFile);
      try {
        // Written aside, then renamed over: a hook never reads half a list.
        mkdirSync(beside.tokens, { recursive: true });
        writeFileSync(beside.next, stopFileText(allowedCallIds, listable));
        renameSync(beside.next, stopFile);
      } catch {
        // Without the file the guard is off; the signals still stop the session.
      }
    },
    dispose() {
      for (const file of stopGuardPaths({ stopFile, answerFile })) rmSync(file, { recursive: true, force: true });
    },
  };
}

/** A stop file's text: the listable entries, one per line (an empty line would let everything through). */
export function stopFileText(allowed: readonly string[], listable: ListableEntry = isListableCallId): string {
  return allowed
    .filter((entry) => entry !== '' && !/[\r\n]/.test(entry) && listable(entry))
    .map((id) => `${id}\n`)
    .join('');
}
