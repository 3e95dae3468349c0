/**
 * The git side of running phases side by side (--parallel): a worktree on a branch of its own for
 * each phase, and the merges of those branches into the run's branch. No history is rewritten: a
 * phase's branch is merged with `--no-ff`, and a merge that conflicts or breaks a gate is aborted
 * (`git merge --abort`), leaving the run's work tree as it was.
 */
import { existsSync } from 'node:fs';
import { GitError } from '../errors/index.js';
import { firstLines, gitStdout, runGit } from './run-git.js';

/** The branch checked out in `root`; undefined on a detached HEAD. */
export async function currentBranch(root: string): Promise<string | undefined> {
  const out = await runGit(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const name = out.stdout.trim();
  return out.exitCode === 0 && name !== '' ? name : undefined;
}

export async function branchExists(root: string, branch: string): Promise<boolean> {
  return (await runGit(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).exitCode === 0;
}

/**
 * While `git worktree add` makes a worktree, its HEAD names no commit for a moment, and a `git
 * fetch` anywhere in the repository then fails its check of what it received ("bad object
 * worktrees/NAME/HEAD"; git 2.39; --queue's submitter fetched beside its starts: bench figure 9).
 * So in this process a worktree is added while no fetch runs, and fetches (any number at once)
 * run while no worktree is being added.
 */
let adding: Promise<unknown> = Promise.resolve();
const fetching = new Set<Promise<unknown>>();

export async function whileNoWorktreeIsAdded<T>(work: () => Promise<T>): Promise<T> {
  for (let seen = adding; ; seen = adding) {
    await seen;
    if (seen === adding) break;
  }
  const running = work();
  fetching.add(running);
  try {
    return await running;
  } finally {
    fetching.delete(running);
  }
}

function withNoFetchRunning<T>(work: () => Promise<T>): Promise<T> {
  const mine = adding.then(async () => {
    await Promise.allSettled([...fetching]);
    return work();
  });
  adding = mine.catch(() => undefined);
  return mine;
}

/** A new worktree at `dir` on a new branch `branch` made from `startPoint`; an existing one (a resume) is kept as it is. */
export async function addWorktree(root: string, dir: string, branch: string, startPoint: string): Promise<'added' | 'existing'> {
  return withNoFetchRunning(async () => {
    if (existsSync(dir)) return 'existing';
    const args = (await branchExists(root, branch)) ? ['worktree', 'add', dir, branch] : ['worktree', 'add', '-b', branch, dir, startPoint];
    const out = await runGit(root, args);
    if (out.exitCode !== 0) throw new GitError(`git worktree add ${dir} failed: ${firstLines(out.stderr || out.stdout, 3)}`);
    return 'added';
  });
}

/** Removes the worktree (never forced: a tree with uncommitted work stays) and, when asked, its branch if merged. */
export async function removeWorktree(root: string, dir: string, branch: string | undefined): Promise<boolean> {
  if (existsSync(dir)) {
    const out = await runGit(root, ['worktree', 'remove', dir]);
    if (out.exitCode !== 0) return false;
  }
  // -d refuses an unmerged branch: its work is never dropped here.
  if (branch !== undefined && (await branchExists(root, branch))) await runGit(root, ['branch', '-d', branch]);
  return true;
}

export type MergeOutcome =
  | { kind: 'merged' }
  /** Nothing to merge: the branch is already in HEAD. */
  | { kind: 'up_to_date' }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'error'; message: string };

/**
 * `git merge --no-ff --no-commit branch` in `root`: the merged tree is there to check before it is
 * committed (commitMerge) or dropped (abortMerge). A conflict is aborted here and its files named.
 */
export async function startMerge(root: string, branch: string): Promise<MergeOutcome> {
  const out = await runGit(root, ['merge', '--no-ff', '--no-commit', branch]);
  if (out.exitCode === 0) {
    return (await mergeInProgress(root)) ? { kind: 'merged' } : { kind: 'up_to_date' };
  }
  const files = await conflictedFiles(root);
  await abortMerge(root);
  if (files.length > 0) return { kind: 'conflict', files };
  return { kind: 'error', message: firstLines(out.stderr || out.stdout, 3) };
}

export async function commitMerge(root: string, message: string): Promise<void> {
  const out = await runGit(root, ['commit', '--no-verify', '--quiet', '-m', message]);
  if (out.exitCode !== 0) throw new GitError(`the merge commit failed in ${root}: ${firstLines(out.stderr || out.stdout, 3)}`);
}

export async function abortMerge(root: string): Promise<void> {
  if (await mergeInProgress(root)) await runGit(root, ['merge', '--abort']);
}

export async function mergeInProgress(root: string): Promise<boolean> {
  return (await runGit(root, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'])).exitCode === 0;
}

export async function conflictedFiles(root: string): Promise<string[]> {
  const out = await runGit(root, ['diff', '--name-only', '--diff-filter=U', '-z']);
  return out.stdout.split('\0').filter((file) => file !== '');
}

/**
 * Merges `branch` into the branch of the worktree `dir` and commits the result even when it
 * conflicts, markers and all, so the phase's remediation session starts from a clean tree with
 * the conflict in plain sight (the agent resolves it; nothing is guessed). The conflicted files.
 */
export async function mergeIntoWorktree(dir: string, branch: string, message: string): Promise<string[]> {
  const out = await runGit(dir, ['merge', '--no-ff', '--no-commit', branch]);
  const files = out.exitCode === 0 ? [] : await conflictedFiles(dir);
  if (out.exitCode !== 0 && files.length === 0) throw new GitError(`git merge ${branch} failed in ${dir}: ${firstLines(out.stderr || out.stdout, 3)}`);
  if (!(await mergeInProgress(dir))) return files;
  await gitStdout(dir, ['add', '-A']);
  await commitMerge(dir, message);
  return files;
}

/** Files among `files` that still hold a conflict marker line. */
export async function filesWithConflictMarkers(dir: string, files: readonly string[]): Promise<string[]> {
  if (files.length === 0) return [];
  const out = await runGit(dir, ['grep', '-l', '-E', '^(<<<<<<<|>>>>>>>) ', '--', ...files.map((file) => `:(literal)${file}`)]);
  return out.stdout.split('\n').filter((file) => file !== '');
}
