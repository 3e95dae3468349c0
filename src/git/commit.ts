import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GitError } from '../errors/index.js';
import { gitPath, isGitRepo } from './repo.js';
import { restoreIndex, snapshotIndex, type IndexSnapshot } from './index-snapshot.js';
import { firstLines, runGit, runGitTask, splitNul, type GitOutput } from './run-git.js';

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

/**
 * Paths are taken literally, never as globs (git's --literal-pathspecs sets the same variable).
 * `add --verbose` prints a line per path: simple-git waits 50 ms more after a command that printed
 * nothing. The commit keeps --quiet and that wait: without it git prints a diffstat of the commit,
 * which cost more than 50 ms on a commit of 200 files in a repository of 10,000.
 */
const LITERAL_PATHSPECS = { GIT_LITERAL_PATHSPECS: '1' };

/** The hooks that run during `git commit` and can refuse it. */
const COMMIT_HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg'] as const;

/**
 * Commits exactly `paths` (relative to root) as they are in the working tree: new, modified or
 * deleted. Nothing else goes in, whatever the index holds: what the user staged for other paths
 * stays staged and out of the commit (git's `commit --only`, which builds the commit from HEAD
 * plus these paths in a temporary index). Paths are taken literally, never as globs.
 *
 * Nothing is ever taken out of the working tree: if staging or the commit fails (a hook exiting
 * non-zero, a missing identity, a held lock), the index is put back byte for byte as it was and
 * the result says why. Throws only when `root` is not inside a git working tree.
 */
export async function commitPaths(root: string, message: string, paths: readonly string[]): Promise<CommitResult> {
  if (!(await isGitRepo(root))) {
    throw new GitError(`cannot commit: ${root} is not inside a git working tree`, {
      hint: 'Run `git init` there, or turn auto-commit off with --no-auto-commit.',
    });
  }
  if (paths.length === 0) return { committed: false, files: [], reason: 'nothing-to-commit' };
  const snapshot = await snapshotIndex(root);
  let notCommitted: CommitResult | undefined;
  try {
    notCommitted = await stageAndCommit(root, message, paths, snapshot);
  } catch (error) {
    // git could not be run at all: the index goes back before the error goes up.
    await restoreIndex(snapshot).catch(() => undefined);
    throw error;
  }
  if (notCommitted) return notCommitted;
  return { committed: true, ...(await headCommitListing(root)) };
}

/** Stages `paths` and commits them alone; undefined once committed, else why not (index restored). */
async function stageAndCommit(root: string, message: string, paths: readonly string[], snapshot: IndexSnapshot): Promise<CommitResult | undefined> {
  const pathspec = await writePathspecFile(paths);
  try {
    const add = (await runGitTask(root, ['add'], (git) => git.add(['--all', '--verbose', ...pathspec.args]), { env: LITERAL_PATHSPECS })).output;
    if (add.exitCode !== 0) return await failed(snapshot, 'error', add);

    // A path can differ from HEAD only in the index while its file equals HEAD: nothing to record.
    // With no commit named, `diff --cached` compares the index with HEAD, and on an unborn branch
    // lists everything staged: no git process is needed to find the base first.
    const wanted = new Set(paths);
    const staged = await runGit(root, ['diff', '--cached', '--name-only', '-z', '--no-renames', '--relative']);
    if (staged.exitCode !== 0) return await failed(snapshot, 'error', staged);
    const recordable = splitNul(staged.stdout).filter((path) => wanted.has(path));
    if (recordable.length === 0) {
      await restoreIndex(snapshot);
      return { committed: false, files: [], reason: 'nothing-to-commit' };
    }
    const only = recordable.length === paths.length ? pathspec : await writePathspecFile(recordable);
    try {
      const identity = await identityOverrides(root);
      const commit = (await runGitTask(root, ['commit'], (git) => git.commit(message, ['--quiet', '--only', ...only.args]), { config: identity, env: LITERAL_PATHSPECS })).output;
      if (commit.exitCode !== 0) return await failed(snapshot, (await hasCommitHook(root)) ? 'hook-failed' : 'error', commit);
      return undefined;
    } finally {
      if (only !== pathspec) await only.remove();
    }
  } finally {
    await pathspec.remove();
  }
}

/**
 * The paths in a NUL-separated file git reads with --pathspec-from-file: a phase can change more
 * files than a command line holds.
 */
async function writePathspecFile(paths: readonly string[]): Promise<{ args: string[]; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'debussy-pathspec-'));
  const file = join(dir, 'paths');
  await writeFile(file, paths.map((path) => `${path}\0`).join(''));
  return { args: [`--pathspec-from-file=${file}`, '--pathspec-file-nul'], remove: () => rm(dir, { recursive: true, force: true }) };
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
 * The identity overrides of each root, asked once per process (each question is a git process,
 * on every commit of every phase). The consequence: an identity the user configures while debussy
 * runs is used from the next run on; until then this run's commits keep the fallback it found
 * missing (a `-c` setting wins over the user's config). An identity removed mid-run leaves the
 * commit to git's own rules: it guesses one or refuses, and a refusal is reported with git's own
 * message like any other failed commit.
 */
const knownIdentityOverrides = new Map<string, string[]>();

/**
 * `-c` settings that give the commit an identity when the user has none configured. A configured
 * identity (or GIT_AUTHOR_* / GIT_COMMITTER_* in the environment, which git prefers) always wins.
 */
async function identityOverrides(root: string): Promise<string[]> {
  const dir = resolve(root);
  const known = knownIdentityOverrides.get(dir);
  if (known !== undefined) return known;
  const { overrides, clear } = await askIdentityOverrides(root);
  // Only a clear answer is kept (exit 0: some set, exit 1: neither set); a config file git
  // refuses to read is asked about again on the next commit.
  if (clear) knownIdentityOverrides.set(dir, overrides);
  return overrides;
}

async function askIdentityOverrides(root: string): Promise<{ overrides: string[]; clear: boolean }> {
  const fallback = { 'user.name': 'debussy', 'user.email': 'debussy@localhost' };
  // One git process for both keys: a line "key value" per setting, in git's order, so the last
  // one of a key is the one git uses (exit 1 when neither is set).
  const configured = await runGit(root, ['config', '--get-regexp', '^user\\.(name|email)$']);
  const values = new Map<string, string>();
  if (configured.exitCode === 0) {
    for (const line of configured.stdout.split('\n').filter((l) => l !== '')) {
      const space = line.indexOf(' ');
      values.set((space < 0 ? line : line.slice(0, space)).toLowerCase(), space < 0 ? '' : line.slice(space + 1).trim());
    }
  }
  const overrides = Object.entries(fallback).filter(([key]) => (values.get(key) ?? '') === '').map(([key, value]) => `${key}=${value}`);
  return { overrides, clear: configured.exitCode === 0 || configured.exitCode === 1 };
}

/**
 * Whether any executable hook could have refused the commit (honours core.hooksPath). The hooks'
 * paths are asked afresh every time, never cached like the index path: core.hooksPath can change
 * while debussy runs (the agent may set it), and this is asked only after a commit failed, so a
 * fresh answer costs nothing on the path every phase takes and keeps the reason worded right.
 */
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

/**
 * The commit HEAD now points at and the paths it records (relative to root), from one git
 * process: without --no-commit-id, diff-tree prints the commit's id before its paths, and
 * --always prints the id even when no path under root changed (otherwise it prints nothing).
 */
async function headCommitListing(root: string): Promise<{ sha: string; files: string[] }> {
  const output = await runGit(root, ['diff-tree', '--always', '-r', '--root', '--name-only', '-z', '--no-renames', '--relative', 'HEAD']);
  const listing = output.exitCode === 0 ? parseCommitListing(output.stdout) : undefined;
  if (listing === undefined) {
    const why = output.exitCode === 0 ? 'no commit id in the listing' : firstLines(output.stderr || output.stdout, 3) || `exit code ${output.exitCode}`;
    throw new GitError(`git commit succeeded in ${root} but its commit cannot be read: ${why}`);
  }
  return listing;
}

/** A commit id: 40 hex digits for SHA-1 repositories, 64 for SHA-256 ones. */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Reads `git diff-tree -z --name-only` output for one commit: its id, NUL-terminated, then each
 * path, NUL-terminated. undefined when the output does not start with a commit id.
 */
export function parseCommitListing(output: string): { sha: string; files: string[] } | undefined {
  const [sha, ...files] = splitNul(output);
  if (sha === undefined || !COMMIT_ID.test(sha)) return undefined;
  return { sha, files };
}
