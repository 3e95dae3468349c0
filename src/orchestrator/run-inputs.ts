/**
 * debussy's own inputs in the work tree: its config file and the plan the run follows (the master
 * plan and each phase file). The agent works in the same tree and can delete them (`rm -rf
 * .debussy`, `rm -rf plans`); a phase's commit would then record the deletion, and the next run
 * would silently use the default configuration, or find no plan. The run keeps each file's bytes
 * as it read them at its start; a deleted one is written back from them (never from HEAD: the
 * user's uncommitted edit of the config is what the run used), and the run stops and says so
 * (run-state-guard.ts). A file the agent edits is its business: only deletions are undone.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface InputsKept {
  /** Deleted and written back, relative to the project root. */
  restored: string[];
  /** Deleted and not written back (why, per path). */
  lost: { path: string; why: string }[];
}

export class RunInputs {
  private constructor(
    private readonly root: string,
    private readonly files: ReadonlyMap<string, Buffer>,
  ) {}

  /** Reads the files (absolute paths) that lie inside `root`; one that cannot be read is not kept. */
  static read(root: string, files: readonly (string | undefined)[]): RunInputs {
    const kept = new Map<string, Buffer>();
    for (const file of files) {
      if (file === undefined || !isInside(root, file)) continue;
      try {
        kept.set(path.resolve(file), readFileSync(file));
      } catch {
        // Not there to begin with: nothing to keep.
      }
    }
    return new RunInputs(root, kept);
  }

  /** The kept files, relative to the root. */
  paths(): string[] {
    return [...this.files.keys()].map((file) => path.relative(this.root, file));
  }

  /** Writes back every kept file that is gone. */
  keep(): InputsKept {
    const kept: InputsKept = { restored: [], lost: [] };
    for (const [file, content] of this.files) {
      if (exists(file)) continue;
      const shown = path.relative(this.root, file);
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, content, { flag: 'wx' });
        kept.restored.push(shown);
      } catch (error) {
        kept.lost.push({ path: shown, why: error instanceof Error ? error.message : String(error) });
      }
    }
    return kept;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
