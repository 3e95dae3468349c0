import { open, readFile, rename, rm } from 'node:fs/promises';
import { GitError } from '../errors/index.js';
import { indexPath } from './repo.js';

/**
 * The bytes of the git index as they were before debussy staged anything. Restoring them puts
 * the staging area back exactly (partially staged files included) without touching a single file
 * in the working tree or any commit: a failed auto-commit must leave the user where they were.
 */
export interface IndexSnapshot {
  path: string;
  /** undefined when the repository had no index file yet. */
  content: Buffer | undefined;
}

export async function snapshotIndex(root: string): Promise<IndexSnapshot> {
  const path = await indexPath(root);
  try {
    return { path, content: await readFile(path) };
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return { path, content: undefined };
    throw new GitError(`cannot read the git index ${path}`, { cause: error });
  }
}

/**
 * Writes the snapshot back using git's own lock protocol (create `index.lock` exclusively, fill
 * it, rename it over the index), so a concurrent git command is never overwritten mid-write.
 */
export async function restoreIndex(snapshot: IndexSnapshot): Promise<void> {
  const lockPath = `${snapshot.path}.lock`;
  let lock;
  try {
    lock = await open(lockPath, 'wx');
  } catch (error) {
    throw new GitError(`cannot restore the git index: ${lockPath} is held by another git process`, {
      hint: 'The changes are still in the working tree; run `git status` and unstage what you do not want.',
      cause: error,
    });
  }
  try {
    if (snapshot.content !== undefined) await lock.writeFile(snapshot.content);
    await lock.close();
    if (snapshot.content !== undefined) {
      await rename(lockPath, snapshot.path);
    } else {
      await rm(snapshot.path, { force: true });
      await rm(lockPath, { force: true });
    }
  } catch (error) {
    await lock.close().catch(() => undefined);
    await rm(lockPath, { force: true });
    throw new GitError(`cannot restore the git index ${snapshot.path}`, { cause: error });
  }
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
