import { access, constants } from 'node:fs/promises';
import { GitError } from '../errors/index.js';
import { gitPath, headSha, isGitRepo } from './repo.js';
import { restoreIndex, snapshotIndex, type IndexSnapshot } from './index-snapshot.js';
import { firstLines, gitStdout, runGit, splitNul, type GitOutput } from './run-git.js';
import { DEBUSSY_RUN_DATA_PATHS, excludePathspecs } from './run-data.js';

export interface CommitResult {
  committed: boolean;
  sha?: string;
  /** Paths recorded in the commit, relative to root. */
  files: string[];
  reason?: 'nothing-to-commit' | 'hook-failed' | 'error';
  /** The first lines of what git (or the hook) printed, when the commit did not happen. */
  error?: string;
}

/** How many lines of hook or git output a failed commit reports. */
const REPORTED_OUTPUT_LINES = 20;

/** The hooks that run during `git commit` and can refuse it. */
const COMMIT_HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg'] as const;

/**
 * Stages everything under `root` that git does not ignore (new, modified and deleted files),
 * except debussy's run data and `options.exclude` (paths relative to root), and commits it.
 *
 * Nothing is ever taken out of the working tree: if staging or the commit fails (a hook exiting
 * non-zero, a missing identity, a held lock), the index is put back byte for byte as it was and
 * the result says why. Throws only when `root` is not inside a git working tree.
 */
export async function commitAll(root: string, message: string, options: { exclude?: string[] } = {}): Promise<CommitResult> {
  if (!(await isGitRepo(root))) {
    throw new GitError(`cannot commit: ${root} is not inside a git working tree`, {
      hint: 'Run `git init` there, or turn auto-commit off with --no-auto-commit.',
    });
  }
  const snapshot = await snapshotIndex(root);

  // `git add` exits 1 when an exclude pathspec names a path the project already ignores, so only
  // the excludes that .gitignore does not cover are passed.
  const excludes = await notIgnored(root, [...DEBUSSY_RUN_DATA_PATHS, ...(options.exclude ?? [])]);
  const add = await runGit(root, ['add', '--all', '--', '.', ...excludePathspecs(excludes)]);
  if (add.exitCode !== 0) return failed(snapshot, 'error', add);

  const anythingStaged = await runGit(root, ['diff', '--cached', '--quiet']);
  if (anythingStaged.exitCode === 0) return { committed: false, files: [], reason: 'nothing-to-commit' };
  if (anythingStaged.exitCode !== 1) return failed(snapshot, 'error', anythingStaged);

  const commit = await runGit(root, [...(await identityOverrides(root)), 'commit', '--quiet', '--message', message]);
  if (commit.exitCode !== 0) return failed(snapshot, (await hasCommitHook(root)) ? 'hook-failed' : 'error', commit);

  const sha = await headSha(root);
  if (sha === undefined) throw new GitError(`git commit succeeded in ${root} but HEAD is unborn`);
  return { committed: true, sha, files: await filesInCommit(root, sha) };
}

async function failed(snapshot: IndexSnapshot, reason: 'hook-failed' | 'error', output: GitOutput): Promise<CommitResult> {
  const printed = firstLines(output.all, REPORTED_OUTPUT_LINES) || `git exited with code ${output.exitCode}`;
  try {
    await restoreIndex(snapshot);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { committed: false, files: [], reason, error: `${printed}\n(${why}; the changes are still in the working tree)` };
  }
  return { committed: false, files: [], reason, error: printed };
}

/**
 * `-c` options that give the commit an identity when the user has none configured. A configured
 * identity (or GIT_AUTHOR_* / GIT_COMMITTER_* in the environment, which git prefers) always wins.
 */
async function identityOverrides(root: string): Promise<string[]> {
  const fallback = { 'user.name': 'debussy', 'user.email': 'debussy@localhost' };
  const overrides: string[] = [];
  for (const [key, value] of Object.entries(fallback)) {
    const configured = await runGit(root, ['config', '--get', key]);
    if (configured.exitCode !== 0 || configured.stdout.trim() === '') overrides.push('-c', `${key}=${value}`);
  }
  return overrides;
}

/** Whether any executable hook could have refused the commit (honours core.hooksPath). */
async function hasCommitHook(root: string): Promise<boolean> {
  for (const hook of COMMIT_HOOKS) {
    try {
      await access(await gitPath(root, `hooks/${hook}`), constants.X_OK);
      return true;
    } catch {
      // not present or not executable: git skips it
    }
  }
  return false;
}

async function filesInCommit(root: string, sha: string): Promise<string[]> {
  const output = await gitStdout(root, ['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', '--no-renames', '--relative', sha]);
  return splitNul(output);
}

/** The paths among `paths` that git does not ignore (existing or not). */
async function notIgnored(root: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const check = await runGit(root, ['check-ignore', '--no-index', '--', ...paths]);
  // Exit 1: none ignored; 0: some ignored (listed); anything else: be safe and exclude them all.
  if (check.exitCode === 1) return [...paths];
  if (check.exitCode !== 0) return [...paths];
  const ignored = new Set(check.stdout.split('\n').filter((line) => line !== ''));
  return paths.filter((path) => !ignored.has(path));
}
