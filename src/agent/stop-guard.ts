/**
 * A PreToolUse hook that blocks every tool once a stop file exists. The runner stops claude with
 * SIGINT, but the model's next response could in principle arrive and start a tool before the
 * signal lands; once the stop is decided the file is created and such a tool is refused (exit 2:
 * the CLI shows the hook's stderr to the model instead of running the tool). A hook costs one
 * `sh` per tool call.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface StopGuard {
  /** JSON for `--settings`. */
  settingsJson: string;
  stopFile: string;
  /** From now on, every tool call is blocked. */
  arm(): void;
  dispose(): void;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

export function stopGuardSettings(stopFile: string): string {
  const command = `test -e ${shellQuote(stopFile)} && { echo "debussy: this session is stopping; do not start new work" >&2; exit 2; }; exit 0`;
  return JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command }] }] } });
}

export function createStopGuard(sessionMarker: string): StopGuard {
  const stopFile = path.join(tmpdir(), `debussy-stop-${sessionMarker}`);
  return {
    settingsJson: stopGuardSettings(stopFile),
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
