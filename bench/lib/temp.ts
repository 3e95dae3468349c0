/** Temp dirs that are always removed, and a free-space check before writing big files. */
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function withTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `debussy-bench-${prefix}-`));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Throws unless `dir`'s file system has `bytes` free (plus a margin for everything else). */
export async function requireFreeSpace(dir: string, bytes: number): Promise<void> {
  const stats = await statfs(dir);
  const free = stats.bavail * stats.bsize;
  const margin = 512 * 1024 * 1024;
  if (free < bytes + margin) {
    throw new Error(`bench: needs ${Math.ceil((bytes + margin) / 2 ** 20)} MB free in ${dir}, has ${Math.floor(free / 2 ** 20)} MB`);
  }
}
