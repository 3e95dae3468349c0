/**
 * A PreToolUse hook that blocks every tool once a stop file exists. The runner stops claude with
 * SIGINT, but the model's next response could in principle arrive and start a tool before the
 * signal lands; once the stop is decided the file is created and such a tool is refused (exit 2:
 * the CLI shows the hook's stderr to the model instead of running the tool). A hook costs one
 * `sh` per tool call. The hook itself is in session-settings.ts, with debussy's other hooks.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { debussyHooks } from './claude/session-settings.js';

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

/** Settings JSON holding debussy's hooks alone (session-settings.ts merges them with the user's). */
export function stopGuardSettings(stopFile: string): string {
  return JSON.stringify({ hooks: debussyHooks(stopFile) });
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
