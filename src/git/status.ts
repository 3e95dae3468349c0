import { pathPrefix } from './repo.js';
import { gitStdout, splitNul } from './run-git.js';
import { scopePathspecs } from './run-data.js';

export interface WorkingTreeStatus {
  /** Tracked paths that differ from HEAD, staged or not (modified, deleted, added to the index, unmerged). */
  trackedChanges: string[];
  /** Paths git does not track and does not ignore (each file listed, not just its directory). */
  untracked: string[];
  /** Paths whose index entry differs from HEAD: what a plain `git commit` would record. */
  staged: string[];
  /** Nothing at all changed: no tracked changes and no untracked files. */
  clean: boolean;
}

/**
 * Parses `git status --porcelain=v1 -z` output. Our own parser over simple-git's `raw`, not its
 * `status()`: simple-git trims each record, so a file named `notes ` came back as `notes` (seen
 * with simple-git 4.0.2) and a commit of it would name a file that does not exist. Each record is `XY path`; a rename or copy is
 * followed by one more record holding its source path. X is the index side, Y the work tree.
 * A `## branch` header (`--branch`) is skipped: asked for so git always prints something, since
 * simple-git waits 50 ms more after a command that printed nothing.
 */
export function parsePorcelainV1(output: string): WorkingTreeStatus {
  const records = splitNul(output);
  const trackedChanges: string[] = [];
  const untracked: string[] = [];
  const staged: string[] = [];
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] ?? '';
    const index = record[0] ?? ' ';
    const workTree = record[1] ?? ' ';
    const paths = [record.slice(3)];
    if (index === 'R' || index === 'C') {
      const source = records[i + 1];
      i += 1;
      // A copy leaves its source unchanged; a rename removes it, so the source changed too.
      if (index === 'R' && source !== undefined) paths.push(source);
    }
    if (index === '?') {
      untracked.push(...paths);
      continue;
    }
    if (index === '!' || index === '#') continue;
    trackedChanges.push(...paths);
    if (index !== ' ' && !isUnmerged(index, workTree)) staged.push(...paths);
  }
  return {
    trackedChanges,
    untracked,
    staged,
    clean: trackedChanges.length === 0 && untracked.length === 0,
  };
}

function isUnmerged(index: string, workTree: string): boolean {
  return index === 'U' || workTree === 'U' || (index === 'A' && workTree === 'A') || (index === 'D' && workTree === 'D');
}

/**
 * The state of the working tree under `root`, paths relative to `root`, debussy's run data left
 * out. Porcelain output is always relative to the top level, so a sub-directory root is stripped
 * of its prefix. Untracked files are listed one by one, or with `untrackedDirs: 'collapsed'` a
 * directory holding only untracked files as one entry ending in `/` (a `venv/` nobody ignored is
 * then one entry, not thousands).
 */
export async function workingTreeStatus(root: string, options: { untrackedDirs?: 'listed' | 'collapsed' } = {}): Promise<WorkingTreeStatus> {
  const untrackedMode = options.untrackedDirs === 'collapsed' ? 'normal' : 'all';
  const [prefix, output] = await Promise.all([
    pathPrefix(root),
    gitStdout(root, ['status', '--porcelain=v1', '-z', '--branch', `--untracked-files=${untrackedMode}`, '--no-renames', '--', ...scopePathspecs()]),
  ]);
  const status = parsePorcelainV1(output);
  const relative = (paths: string[]): string[] =>
    paths.map((path) => (path.startsWith(prefix) ? path.slice(prefix.length) : path));
  return {
    trackedChanges: relative(status.trackedChanges),
    untracked: relative(status.untracked),
    staged: relative(status.staged),
    clean: status.clean,
  };
}

/**
 * True when tracked files under `root` are modified, deleted or staged. Untracked files do not
 * count: they cannot be lost by a commit, so they do not block a run without --allow-dirty.
 */
export async function hasTrackedChanges(root: string): Promise<boolean> {
  const output = await gitStdout(root, ['status', '--porcelain=v1', '-z', '--branch', '--untracked-files=no', '--no-renames', '--', ...scopePathspecs()]);
  return parsePorcelainV1(output).trackedChanges.length > 0;
}
