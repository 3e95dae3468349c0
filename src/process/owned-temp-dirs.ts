/**
 * Temporary folders named by the debussy that made them: `debussy-<kind>-<owner>-XXXXXX`, the owner
 * being its DEBUSSY_OWNER value (owner-marker.ts). Each is removed by its maker when done; after
 * debussy itself was killed (kill -9) in the middle, the next run, which knows the dead debussy from
 * the lock it reclaims, removes them (orchestrator/reclaim-dead-run.ts).
 */
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isProcessAlive } from './identity.js';
import { OWNER_MARKER_VAR, ownerMarkerValue, type ProcessOwner } from './owner-marker.js';

/** What an owner marker looks like (`<pid>-<start time>`): never a path. */
const PLAIN_OWNER = /^\d+-[0-9x]+$/;

/** The start of the name of a folder of `kind` made by the debussy whose owner marker is `owner` (none: unowned). */
function ownedName(kind: string, owner?: string): string {
  return owner === undefined ? `debussy-${kind}-` : `debussy-${kind}-${owner}-`;
}

/** The prefix for mkdtemp of a folder of `kind` that this debussy makes (without an owner marker, unowned). */
export function ownedTempPrefix(kind: string, env: NodeJS.ProcessEnv = process.env): string {
  const owner = env[OWNER_MARKER_VAR];
  return path.join(tmpdir(), ownedName(kind, owner !== undefined && PLAIN_OWNER.test(owner) ? owner : undefined));
}

/** Removes the folders of `kind` a dead `owner` left in the temporary directory; none while it lives. How many. */
export function removeOwnedTempDirs(owner: ProcessOwner, kind: string): number {
  const value = ownerMarkerValue(owner);
  if (!PLAIN_OWNER.test(value) || isProcessAlive(owner.pid, owner.startTime)) return 0;
  const prefix = ownedName(kind, value);
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    try {
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
      removed += 1;
    } catch {
      // Another user's, or held: left alone.
    }
  }
  return removed;
}
