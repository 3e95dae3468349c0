/**
 * What a live run needs in its live directory (`<git dir>/debussy/runs/<run>/`, paths.ts) besides
 * the lock, which the lock keeps itself: the agent's `debussy` (the shim and session-env.sh, which
 * put it first on the agent's PATH) and the inbox its `done` and `progress` go through. An agent
 * that deletes `.git/debussy` takes them with it, and every later `debussy done` would be "command
 * not found": the phase would burn its retries and fail without signalling completion. `keep()`
 * puts back whatever is missing or changed; when that cannot be done, the run must stop (exit 8).
 * The run-state guard calls it every half second and the session runner before each tool call.
 * Kept apart so it outlives how the agent reaches debussy.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SignalInbox } from '../agent-signals/signal-inbox.js';
import { sessionEnvFile } from '../agent/claude/claude-env-file.js';
import { writeDebussyShim } from './agent-environment.js';

export type LiveFilesState = 'held' | 'restored' | { lost: string };

export class LiveRunFiles {
  private readonly expected = new Map<string, string>();

  private constructor(
    readonly binDir: string,
    private readonly inbox: SignalInbox,
  ) {}

  /** Writes the agent's debussy into `binDir` (the inbox is started already) and remembers what it wrote. */
  static write(binDir: string, inbox: SignalInbox): LiveRunFiles {
    const files = new LiveRunFiles(binDir, inbox);
    files.writeAll();
    return files;
  }

  /** Puts back what is missing or changed: 'held' when nothing was, 'restored', or why it cannot be. */
  keep(): LiveFilesState {
    if (this.intact()) return 'held';
    try {
      this.writeAll();
    } catch (error) {
      return { lost: error instanceof Error ? error.message : String(error) };
    }
    return this.intact() ? 'restored' : { lost: `${this.binDir} does not hold what was written` };
  }

  private intact(): boolean {
    if (!existsSync(this.inbox.dir)) return false;
    for (const [file, content] of this.expected) {
      try {
        if (readFileSync(file, 'utf8') !== content) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  private writeAll(): void {
    // The inbox's rescan answers from the new directory (its watcher, if any, went with the old one).
    mkdirSync(this.inbox.dir, { recursive: true });
    writeDebussyShim(this.binDir, this.inbox);
    for (const file of [path.join(this.binDir, 'debussy'), sessionEnvFile(this.binDir)]) this.expected.set(file, readFileSync(file, 'utf8'));
  }
}
