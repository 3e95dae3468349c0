import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { PLAIN_DIFF_FLAGS, untrackedFiles } from './changes.js';
import { emptyTreeSha } from './repo.js';
import type { DiffResult } from 'simple-git';
import { gitQuery } from './run-git.js';
import { scopePathspecs } from './run-data.js';

/** One changed file in a summary. Line counts are absent for binary or unreadable files. */
export interface FileChange {
  path: string;
  /** git's status letter: A added, M modified, D deleted, T type changed. */
  status: string;
  added?: number;
  deleted?: number;
}

const DEFAULT_MAX_LINES = 30;
const LONGEST_PADDED_PATH = 60;

/**
 * simple-git's diff summary cannot read `-z` output, so git names each path as `--stat` prints it:
 * non-ASCII as it is (core.quotePath off), a name holding a tab, newline, quote or backslash in
 * C quotes. The summary is for reading, never for finding the files again.
 */
const READABLE_PATHS = ['core.quotePath=false'];

/**
 * A short `git diff --stat`-like summary of what changed under `root` since `baseSha` (committed
 * since, uncommitted, and untracked new files), at most `maxLines` lines. For a checkpoint prompt,
 * so it names files and sizes, never content.
 */
export async function diffSummary(root: string, baseSha: string | undefined, maxLines = DEFAULT_MAX_LINES): Promise<string> {
  const base = baseSha ?? (await emptyTreeSha(root));
  const diff = (mode: '--name-status' | '--numstat'): Promise<DiffResult> =>
    gitQuery(root, ['diff'], (git) => git.diffSummary([mode, ...PLAIN_DIFF_FLAGS, base, '--', ...scopePathspecs()]), { config: READABLE_PATHS });
  const [nameStatus, numstat, untracked] = await Promise.all([diff('--name-status'), diff('--numstat'), untrackedFiles(root)]);
  const changes = mergeDiffResults(nameStatus, numstat);
  for (const path of untracked) changes.push({ path, status: 'A', ...(await countNewFileLines(join(root, path))) });
  return formatDiffSummary(changes, maxLines);
}

/** Joins simple-git's `--name-status` summary (status letters) and its `--numstat` summary (line counts) by path. */
export function mergeDiffResults(nameStatus: DiffResult, numstat: DiffResult): FileChange[] {
  const counts = new Map<string, { added?: number; deleted?: number }>();
  for (const file of numstat.files) {
    // Binary files have no line counts.
    counts.set(file.file, file.binary ? {} : { added: file.insertions, deleted: file.deletions });
  }
  return nameStatus.files.map((file) => ({ path: file.file, status: ('status' in file ? (file.status ?? '') : '').charAt(0), ...counts.get(file.file) }));
}

/** Renders changes sorted by path, capped at `maxLines` lines including the totals line. */
export function formatDiffSummary(changes: readonly FileChange[], maxLines = DEFAULT_MAX_LINES): string {
  if (changes.length === 0) return 'no changes';
  const sorted = [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const limit = Math.max(3, Math.floor(maxLines));
  const shown = sorted.length + 1 <= limit ? sorted : sorted.slice(0, limit - 2);
  const width = Math.min(LONGEST_PADDED_PATH, Math.max(...shown.map((change) => change.path.length)));
  const lines = shown.map((change) => `${change.status} ${change.path.padEnd(width)} | ${describeCounts(change)}`);
  if (shown.length < sorted.length) lines.push(`… and ${sorted.length - shown.length} more files`);
  const added = sum(sorted.map((change) => change.added ?? 0));
  const deleted = sum(sorted.map((change) => change.deleted ?? 0));
  const files = sorted.length === 1 ? '1 file' : `${sorted.length} files`;
  lines.push(`${files} changed, ${added} insertions(+), ${deleted} deletions(-)`);
  return lines.join('\n');
}

function describeCounts(change: FileChange): string {
  if (change.added === undefined || change.deleted === undefined) return 'binary';
  const parts: string[] = [];
  if (change.added > 0 || change.deleted === 0) parts.push(`+${change.added}`);
  if (change.deleted > 0) parts.push(`-${change.deleted}`);
  return parts.join(' ');
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * Line count of a file git does not track yet, read as a stream so a large file is never held in
 * memory. A NUL byte near the start marks it binary (git's own heuristic); a symlink or anything
 * unreadable gets no counts.
 */
async function countNewFileLines(path: string): Promise<{ added?: number; deleted?: number }> {
  try {
    if (!(await lstat(path)).isFile()) return {};
    let lines = 0;
    let bytesSeen = 0;
    let lastByte: number | undefined;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      if (bytesSeen < 8000 && chunk.subarray(0, 8000 - bytesSeen).includes(0)) return {};
      bytesSeen += chunk.length;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines += 1;
      lastByte = chunk[chunk.length - 1];
    }
    if (lastByte !== undefined && lastByte !== 0x0a) lines += 1;
    return { added: lines, deleted: 0 };
  } catch {
    return {};
  }
}
