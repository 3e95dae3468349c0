/**
 * A PreToolUse hook that blocks every tool once a stop file exists, for every agent that runs
 * hooks. The runner stops the agent (claude with SIGINT, codex with turn/interrupt), but the
 * model's next response could arrive and start a tool before the stop lands; once the stop is
 * decided the file is created and such a tool is refused (exit 2: the CLI shows the hook's stderr
 * to the model instead of running the tool). A hook costs one `sh` per tool call. Each driver
 * installs it its own way (claude/session-settings.ts, codex/codex-command.ts, gemini/gemini-launch.ts).
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
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
  /** From now on, every tool call is blocked. */
  arm(): void;
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
    arm() {
      try {
        writeFileSync(stopFile, '');
      } catch {
        // Without the file the guard is off; the signals still stop the session.
      }
    },
    dispose() {
      rmSync(stopFile, { force: true });
      rmSync(answerFile, { force: true });
    },
  };
}
