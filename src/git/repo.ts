import { resolve } from 'node:path';
import { GitError } from '../errors/index.js';
import { firstLines, gitQuery, gitStdout, runGitTask } from './run-git.js';

/**
 * What a process learns once about a directory's repository and keeps: a directory inside a work
 * tree stays inside it, at the same place, while debussy runs (each answer costs a git process).
 */
const knownWorkTrees = new Set<string>();
const knownPrefixes = new Map<string, Promise<string>>();
const knownIndexPaths = new Map<string, Promise<string>>();

/** True when `cwd` lies inside a git working tree (false for a bare repo, a .git dir, a missing dir). */
export async function isGitRepo(cwd: string): Promise<boolean> {
  const dir = resolve(cwd);
  if (knownWorkTrees.has(dir)) return true;
  try {
    const { value } = await runGitTask(cwd, ['rev-parse'], (git) => git.revparse(['--is-inside-work-tree']));
    if (value === 'true') knownWorkTrees.add(dir);
    return value === 'true';
  } catch {
    return false;
  }
}

/** The top-level directory of the working tree containing `cwd`, or undefined outside one. */
export async function gitTopLevel(cwd: string): Promise<string | undefined> {
  try {
    const { value } = await runGitTask(cwd, ['rev-parse'], (git) => git.revparse(['--show-toplevel']));
    return value === undefined || value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

/** The commit HEAD points at, or undefined in a repository that has no commit yet. */
export async function headSha(root: string): Promise<string | undefined> {
  const { value, output } = await runGitTask(root, ['rev-parse'], (git) => git.revparse(['--verify', '--quiet', 'HEAD^{commit}']));
  if (output.exitCode === 0 && value !== undefined) return value;
  // Exit 1 with --quiet means "no such revision": an unborn branch. Anything else (128: not a
  // repository) is a real error.
  if (output.exitCode === 1) return undefined;
  throw new GitError(`cannot read HEAD in ${root}: ${firstLines(output.stderr, 2) || `exit code ${output.exitCode}`}`);
}

/**
 * The id of the empty tree in this repository's object format (SHA-1 and SHA-256 differ), used as
 * the base when there is no commit to compare with.
 */
export async function emptyTreeSha(root: string): Promise<string> {
  return (await gitStdout(root, ['hash-object', '-t', 'tree', '/dev/null'])).trim();
}

/** Absolute path of a file inside the git dir (`index`, `hooks/pre-commit`), honouring core.hooksPath and worktrees. */
export async function gitPath(root: string, name: string): Promise<string> {
  return resolve(root, await gitQuery(root, ['rev-parse'], (git) => git.revparse(['--git-path', name])));
}

/**
 * Absolute path of the index file of `root`'s repository, asked once per root for the life of the
 * process (every auto-commit snapshots the index). It cannot change while debussy runs: git
 * derives it from the repository's layout (its git dir, a linked worktree's own dir) and from
 * GIT_INDEX_FILE in debussy's own environment, and neither moves under a directory debussy works in.
 */
export async function indexPath(root: string): Promise<string> {
  const dir = resolve(root);
  const known = knownIndexPaths.get(dir);
  if (known !== undefined) return known;
  const asked = gitPath(root, 'index');
  knownIndexPaths.set(dir, asked);
  // A failure is not kept: the next call asks git again.
  asked.catch(() => knownIndexPaths.delete(dir));
  return asked;
}

/** The path of `root` relative to the top level, with a trailing slash ('' at the top level). */
export async function pathPrefix(root: string): Promise<string> {
  const dir = resolve(root);
  const known = knownPrefixes.get(dir);
  if (known !== undefined) return known;
  const asked = gitQuery(root, ['rev-parse'], (git) => git.revparse(['--show-prefix']));
  knownPrefixes.set(dir, asked);
  // A failure is not kept: the next call asks git again.
  asked.catch(() => knownPrefixes.delete(dir));
  return asked;
}
