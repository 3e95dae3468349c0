/**
 * Which changed files are too large for debussy to commit: regular files over the limit whose
 * content git would store as it is. A file that git stores through a filter with a clean command
 * (Git LFS: `filter=lfs` in .gitattributes, with `git lfs install` done) goes in as what the
 * filter makes of it (a pointer of a hundred bytes), so it is not too large. Reads sizes and git's
 * attributes, never a file's content: a 2 GB file costs one lstat.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, splitNul } from './run-git.js';

/** How many paths one `git check-attr` call gets: a command line has a limit. */
const PATHS_PER_CALL = 200;

/**
 * Each path (relative to root) that is a regular file larger than `maxBytes` and is not stored
 * through a filter, with its size. None when `maxBytes` is 0 (no limit).
 */
export async function oversizedFiles(root: string, paths: readonly string[], maxBytes: number): Promise<Map<string, number>> {
  const oversized = new Map<string, number>();
  if (maxBytes <= 0) return oversized;
  for (const path of paths) {
    // A symlink is stored as its target's name, a deleted file as nothing: neither is large.
    const stat = await lstat(join(root, path)).catch(() => undefined);
    if (stat?.isFile() === true && stat.size > maxBytes) oversized.set(path, stat.size);
  }
  if (oversized.size === 0) return oversized;
  for (const path of await filteredPaths(root, [...oversized.keys()])) oversized.delete(path);
  return oversized;
}

/** The paths git stores through a filter that has a clean command (or a long-running process). */
async function filteredPaths(root: string, paths: readonly string[]): Promise<string[]> {
  const drivers = await configuredFilterDrivers(root);
  if (drivers.size === 0) return [];
  const filtered: string[] = [];
  for (let at = 0; at < paths.length; at += PATHS_PER_CALL) {
    const chunk = paths.slice(at, at + PATHS_PER_CALL);
    // -z: records of path NUL attribute NUL value NUL.
    const output = await runGit(root, ['check-attr', '-z', 'filter', '--', ...chunk], { env: { GIT_LITERAL_PATHSPECS: '1' } });
    if (output.exitCode !== 0) continue; // unknown: the guard stays on for these
    const records = splitNul(output.stdout);
    for (let i = 0; i + 2 < records.length; i += 3) {
      const [path, , driver] = [records[i], records[i + 1], records[i + 2]];
      if (path !== undefined && driver !== undefined && drivers.has(driver)) filtered.push(path);
    }
  }
  return filtered;
}

/** Names of the filter drivers git's configuration gives a clean command or a process (`lfs`). */
async function configuredFilterDrivers(root: string): Promise<Set<string>> {
  // Exit 1: no such setting at all.
  const output = await runGit(root, ['config', '-z', '--get-regexp', '^filter\\..+\\.(clean|process)$']);
  const drivers = new Set<string>();
  if (output.exitCode !== 0) return drivers;
  for (const record of splitNul(output.stdout)) {
    // -z: `name\nvalue`; the name is filter.<driver>.clean, and a driver's name may hold dots.
    const name = record.split('\n', 1)[0] ?? '';
    const driver = /^filter\.(.+)\.(?:clean|process)$/.exec(name)?.[1];
    if (driver !== undefined && record.length > name.length + 1) drivers.add(driver);
  }
  return drivers;
}
