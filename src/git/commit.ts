import { access, constants, copyFile, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GitError } from '../errors/index.js';
import { ownedTempPrefix } from '../process/owned-temp-dirs.js';
import { emptyTreeSha, gitPath, indexPath, isGitRepo } from './repo.js';
import { firstLines, runGit, runGitTask, splitNul, type GitOutput } from './run-git.js';

export interface CommitResult {
  committed: boolean;
  sha?: string;
  /** Paths recorded in the commit, relative to root. */
  files: string[];
  reason?: 'nothing-to-commit' | 'hook-failed' | 'error';
  /** The first lines of what git (or the hook) printed, when the commit did not happen. */
  error?: string;
  /** Committed, but the index could not be brought to the commit for its paths: why (they show as staged until it is). */
  indexWarning?: string;
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
 * stays staged and out of the commit. Paths are taken literally, never as globs.
 *
 * The user's index is never touched before the commit is made: the paths are staged in a private
 * copy of it (GIT_INDEX_FILE), from which git's `commit --only` builds the commit (HEAD plus these
 * paths, in a temporary index of its own, which the hooks see). So a commit that fails (a hook
 * exiting non-zero, a missing identity, a held lock) or that is never finished (debussy killed
 * while a slow hook runs) leaves the index exactly as it was, and the next run cannot take the
 * agent's staged work for the user's. Once committed, the index entries of the committed paths
 * are set to the commit's: a hook that rewrote and restaged a file (a formatter) leaves the index
 * equal to HEAD, not holding the content before the hook. Throws only when `root` is not inside a
 * git working tree.
 */
export async function commitPaths(root: string, message: string, paths: readonly string[]): Promise<CommitResult> {
  if (!(await isGitRepo(root))) {
    throw new GitError(`cannot commit: ${root} is not inside a git working tree`, {
      hint: 'Run `git init` there, or turn auto-commit off with --no-auto-commit.',
    });
  }
  if (paths.length === 0) return { committed: false, files: [], reason: 'nothing-to-commit' };
  const work = await mkdtemp(ownedTempPrefix('commit'));
  let committed: string[];
  try {
    const outcome = await commitInPrivateIndex(root, message, paths, work);
    if (!Array.isArray(outcome)) return outcome;
    committed = outcome;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const listing = await headCommitListing(root);
  const indexWarning = await matchIndexToHead(root, committed, listing.files);
  return { committed: true, ...listing, ...(indexWarning === undefined ? {} : { indexWarning }) };
}

/**
 * Stages `paths` in a copy of the index and commits them alone; the paths committed, or why
 * nothing was (the user's index untouched either way).
 */
async function commitInPrivateIndex(root: string, message: string, paths: readonly string[], work: string): Promise<string[] | CommitResult> {
  const privateIndex = join(work, 'index');
  await copyIndex(await indexPath(root), privateIndex);
  const env = { ...LITERAL_PATHSPECS, GIT_INDEX_FILE: privateIndex };
  const pathspec = await writePathspecFile(work, 'paths', paths);
  const add = (await runGitTask(root, ['add'], (git) => git.add(['--all', '--verbose', ...pathspec]), { env })).output;
  if (add.exitCode !== 0) return failed('error', add);

  // A path can differ from HEAD only in the index while its file equals HEAD: nothing to record.
  // With no commit named, `diff --cached` compares the index with HEAD, and on an unborn branch
  // lists everything staged: no git process is needed to find the base first.
  const wanted = new Set(paths);
  const staged = await runGit(root, ['diff', '--cached', '--name-only', '-z', '--no-renames', '--relative'], { env });
  if (staged.exitCode !== 0) return failed('error', staged);
  const recordable = splitNul(staged.stdout).filter((path) => wanted.has(path));
  if (recordable.length === 0) return { committed: false, files: [], reason: 'nothing-to-commit' };
  const only = recordable.length === paths.length ? pathspec : await writePathspecFile(work, 'recordable', recordable);
  const identity = await identityOverrides(root);
  const commit = (await runGitTask(root, ['commit'], (git) => git.commit(message, ['--quiet', '--only', ...only]), { config: identity, env })).output;
  if (commit.exitCode !== 0) return failed((await hasCommitHook(root)) ? 'hook-failed' : 'error', commit);
  return recordable;
}

/**
 * The index copied with its stat data (git then need not hash every file again) and its time: git
 * trusts an entry's stat data only when the file is older than the index file ("racy git"), so a
 * copy newer than the original would take a file edited in the same second for unchanged. The
 * time is copied in milliseconds, never later than the original's. No index yet: none.
 */
async function copyIndex(from: string, to: string): Promise<void> {
  try {
    const { atime, mtime } = await stat(from);
    await copyFile(from, to);
    await utimes(to, atime, mtime);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new GitError(`cannot read the git index ${from}`, { cause: error });
  }
}

/**
 * After the commit: the user's index gets the commit's entries for the paths debussy committed,
 * nothing else. These are the agent's paths, never the user's (commit-scope.ts), so no staging of
 * the user's is lost; what a hook rewrote is then neither staged nor modified. A file a hook added
 * to the commit on its own gets the commit's entry too, unless the user had staged it. undefined
 * when done, else why not.
 */
async function matchIndexToHead(root: string, committed: readonly string[], listed: readonly string[]): Promise<string | undefined> {
  const work = await mkdtemp(ownedTempPrefix('commit'));
  try {
    const ours = new Set(committed);
    const extras = listed.filter((path) => !ours.has(path));
    const addedByHook = extras.length === 0 ? [] : await notStagedByUser(root, extras);
    const pathspec = await writePathspecFile(work, 'paths', [...committed, ...addedByHook]);
    const reset = await runGit(root, ['reset', '--quiet', 'HEAD', ...pathspec], { env: LITERAL_PATHSPECS });
    return reset.exitCode === 0 ? undefined : firstLines(reset.all, 3) || `git reset exited with code ${reset.exitCode}`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Of `paths`, those whose entry in the user's index is the one of the commit before (or, in the first commit, none). */
async function notStagedByUser(root: string, paths: readonly string[]): Promise<string[]> {
  const parent = await runGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}^']);
  const base = parent.exitCode === 0 ? 'HEAD^' : await emptyTreeSha(root);
  // `git diff` reads no pathspec file: everything staged against the parent, then these paths.
  const differ = await runGit(root, ['diff', '--cached', '--name-only', '-z', '--no-renames', '--relative', base]);
  if (differ.exitCode !== 0) return [];
  const staged = new Set(splitNul(differ.stdout));
  return paths.filter((path) => !staged.has(path));
}

/**
 * The paths in a NUL-separated file git reads with --pathspec-from-file: a phase can change more
 * files than a command line holds.
 */
async function writePathspecFile(dir: string, name: string, paths: readonly string[]): Promise<string[]> {
  const file = join(dir, name);
  await writeFile(file, paths.map((path) => `${path}\0`).join(''));
  return [`--pathspec-from-file=${file}`, '--pathspec-file-nul'];
}

function failed(reason: 'hook-failed' | 'error', output: GitOutput): CommitResult {
  const printed = firstLines(output.all, REPORTED_OUTPUT_LINES) || `git exited with code ${output.exitCode}`;
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
