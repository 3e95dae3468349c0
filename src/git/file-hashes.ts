import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { gitStdout } from './run-git.js';

/** How many paths one `git hash-object` call gets: a command line has a limit. */
const PATHS_PER_CALL = 200;

/**
 * The git blob id each file under `root` would get if it were added now (relative paths), or null
 * for a path that is not a regular file or symlink (deleted, a directory). Reads the files, never
 * writes an object: to tell later whether a file changed.
 */
export async function hashWorkingFiles(root: string, paths: readonly string[]): Promise<Map<string, string | null>> {
  const hashes = new Map<string, string | null>();
  const files: string[] = [];
  for (const path of paths) {
    const stat = await lstat(join(root, path)).catch(() => undefined);
    if (stat?.isFile() === true || stat?.isSymbolicLink() === true) files.push(path);
    else hashes.set(path, null);
  }
  for (let at = 0; at < files.length; at += PATHS_PER_CALL) {
    const chunk = files.slice(at, at + PATHS_PER_CALL);
    const ids = (await gitStdout(root, ['hash-object', '--', ...chunk])).split('\n');
    chunk.forEach((path, i) => hashes.set(path, ids[i] ?? null));
  }
  return hashes;
}
