/**
 * The live state of runs that are gone: a run killed with `kill -9` leaves its shim and inbox in
 * the live state directory (`<git dir>/debussy/runs/<run>`). The next run, holding the lock (so no other run of the project
 * lives) and having ended the dead run's processes, removes them.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isValidRunId, liveStateDir } from './paths.js';

export function removeLeftoverLiveRuns(root: string, currentRunId: string): number {
  const dir = join(liveStateDir(root), 'runs');
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (name === currentRunId || !isValidRunId(name)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
