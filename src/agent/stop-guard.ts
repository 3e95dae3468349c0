/**
 * A PreToolUse hook that blocks every tool once a stop file exists. The runner stops claude with
 * SIGINT, but the model's next response could in principle arrive and start a tool before the
 * signal lands; once the stop is decided the file is created and such a tool is refused (exit 2:
 * the CLI shows the hook's stderr to the model instead of running the tool). A hook costs one
 * `sh` per tool call. The hook itself is in session-settings.ts, with debussy's other hooks.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { debussyHooks } from './session-settings.js';

export interface StopGuard {
  stopFile: string;
  /** From now on, every tool call is blocked. */
  arm(): void;
  dispose(): void;
}

/** Settings JSON holding debussy's hooks alone (session-settings.ts merges them with the user's). */
export function stopGuardSettings(stopFile: string): string {
  return JSON.stringify({ hooks: debussyHooks(stopFile) });
}

export function createStopGuard(sessionMarker: string): StopGuard {
  const stopFile = path.join(tmpdir(), `debussy-stop-${sessionMarker}`);
  return {
    stopFile,
    arm() {
      try {
        writeFileSync(stopFile, '');
      } catch {
        // Without the file the guard is off; the signals still stop the session.
      }
    },
    dispose() {
      rmSync(stopFile, { force: true });
    },
  };
}
