/**
 * The run lock: one debussy run per project at a time. `run.lock` in the live state directory
 * (paths.ts: the git directory or a per-user run-time directory, where cleaning the work tree
 * cannot delete it) holds the holder's PID
 * and process start time; a lock whose holder is gone (or whose PID now belongs to another process)
 * is stale and may be reclaimed.
 *
 * Taking the lock is an atomic link(2) of a fully written, fsync'd file onto the lock path, so the
 * lock never exists half written. Removing a stale lock is the dangerous part: two reclaimers that
 * both saw the same stale file must not end up each deleting the other's fresh lock. So removal
 * happens only inside a reclaim election (see `asSoleReclaimer`), and only if the file at the lock
 * path is still the very file (same inode, same content) that was judged stale.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateError } from '../errors/index.js';
import { isProcessAlive, processStartTime } from '../process/identity.js';
import { stateWriteError } from './ndjson.js';
import { lockPath, lockWorkDir } from './paths.js';
import { errorCode } from '../errors/error-code.js';

export interface LockInfo {
  pid: number;
  /**
   * The holder's start time in the clock of the process table that recorded it: clock ticks since
   * boot (procfs) or epoch milliseconds (ps); the value itself says which (process/identity.ts).
   * Absent where neither could be read: the PID alone decides then.
   */
  startTime?: number;
  runId: string;
  planPath: string;
  startedAt: string;
}

export interface AcquiredLock {
  info: LockInfo;
  /** The stale lock this acquisition replaced, for the "reclaimed" notice. */
  reclaimed?: LockInfo;
  /**
   * Checks that the lock is still this run's and puts it back if it was deleted under the run:
   * `held`, `restored`, or `lost` (another process holds it now, or it cannot be written back).
   */
  keep(): Promise<'held' | 'restored' | 'lost'>;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

interface LockFile {
  info: LockInfo;
  raw: string;
  ino: number;
}

const MAX_ACQUIRE_ROUNDS = 20;
const MAX_ELECTION_ROUNDS = 60;
const TICKET_PREFIX = 'reclaim-';
const STAGED_PREFIX = 'staged-';

/** `<prefix><pid>-<start time or x>-<random>`: names that say which process owns a scratch file. */
function ownedName(prefix: string): string {
  return `${prefix}${process.pid}-${processStartTime(process.pid) ?? 'x'}-${randomBytes(4).toString('hex')}`;
}

function ownerOf(name: string, prefix: string): { pid: number; startTime?: number } | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const match = /^(\d+)-(\d+|x)-[0-9a-f]+/.exec(name.slice(prefix.length));
  if (!match) return undefined;
  const pid = Number(match[1]);
  return match[2] === 'x' ? { pid } : { pid, startTime: Number(match[2]) };
}

function ownerIsGone(name: string, prefix: string): boolean {
  const owner = ownerOf(name, prefix);
  return owner === undefined || !isProcessAlive(owner.pid, owner.startTime);
}

function parseLockInfo(raw: string): LockInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, startTime, runId, planPath, startedAt } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid)) return undefined;
  if (typeof runId !== 'string' || typeof planPath !== 'string' || typeof startedAt !== 'string') return undefined;
  const info: LockInfo = { pid, runId, planPath, startedAt };
  if (typeof startTime === 'number' && Number.isSafeInteger(startTime)) info.startTime = startTime;
  return info;
}

/** The lock file, read through one descriptor so its inode and content belong together. */
async function readLockFile(file: string): Promise<LockFile | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new StateError('E_LOCK_READ', `cannot read the run lock ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const { ino } = await handle.stat();
    const raw = await handle.readFile('utf8');
    const info = parseLockInfo(raw);
    if (!info) {
      throw new StateError('E_LOCK_UNREADABLE', `the run lock ${file} is not a debussy lock file`, {
        hint: `if no debussy run is active on this project, delete ${file}`,
      });
    }
    return { info, raw, ino };
  } finally {
    await handle.close();
  }
}

function lockedError(holder: LockInfo): StateError {
  return new StateError(
    'E_LOCKED',
    `another debussy run (pid ${holder.pid}, run ${holder.runId}, started ${holder.startedAt}) is active on this project`,
    {
      exitKind: 'locked',
      hint: `wait for it to finish, or stop it (Ctrl-C in its terminal, or kill -INT ${holder.pid}); \`debussy status\` shows its progress`,
    },
  );
}

/** Writes the lock content to a private file first, so linking it into place is all-or-nothing. */
async function stageLockFile(workDir: string, info: LockInfo): Promise<{ path: string; ino: number; raw: string }> {
  const path = join(workDir, `${ownedName(STAGED_PREFIX)}.json`);
  const raw = `${JSON.stringify(info)}\n`;
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(raw, 'utf8');
    await handle.sync();
    return { path, ino: (await handle.stat()).ino, raw };
  } finally {
    await handle.close();
  }
}

async function tryLink(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Runs `critical` while no other live process is reclaiming. Each contender drops a uniquely named
 * ticket, then looks for other tickets: if it sees none, it is alone (anyone arriving later will see
 * its ticket and back off); otherwise it withdraws and retries after a random pause. Tickets of
 * dead processes are unique to them and deleted without any race.
 */
async function asSoleReclaimer(workDir: string, critical: () => Promise<void>): Promise<void> {
  const ticket = ownedName(TICKET_PREFIX);
  const ticketPath = join(workDir, ticket);
  for (let round = 0; round < MAX_ELECTION_ROUNDS; round++) {
    await writeFile(ticketPath, '', { flag: 'wx' });
    let contested = false;
    for (const name of await readdir(workDir)) {
      if (name === ticket || !name.startsWith(TICKET_PREFIX)) continue;
      if (ownerIsGone(name, TICKET_PREFIX)) await rm(join(workDir, name), { force: true });
      else contested = true;
    }
    try {
      if (!contested) return await critical();
    } finally {
      await rm(ticketPath, { force: true });
    }
    await sleep(5 + Math.random() * Math.min(100, 10 * (round + 1)));
  }
  throw new StateError('E_LOCK_CONTENDED', 'could not take the run lock: other processes keep reclaiming it', {
    hint: 'try again; if it persists, check for stuck debussy processes',
  });
}

/**
 * Takes the project's run lock or throws E_LOCKED (exit kind `locked`) naming the live holder.
 * A stale lock is replaced, and returned as `reclaimed` so the caller can say so.
 */
export async function acquireRunLock(root: string, request: { runId: string; planPath: string }): Promise<AcquiredLock> {
  const file = lockPath(root);
  const workDir = lockWorkDir(root);
  try {
    // Private to the user: outside git it may sit in a shared temporary directory.
    await mkdir(workDir, { recursive: true, mode: 0o700 });
    await removeLeftovers(workDir);
  } catch (error) {
    throw stateWriteError(workDir, error);
  }
  const startTime = processStartTime(process.pid);
  const info: LockInfo = {
    pid: process.pid,
    ...(startTime === undefined ? {} : { startTime }),
    runId: request.runId,
    planPath: request.planPath,
    startedAt: new Date().toISOString(),
  };
  const staged = await stageLockFile(workDir, info).catch((error: unknown) => {
    throw stateWriteError(workDir, error);
  });
  try {
    let reclaimed: LockInfo | undefined;
    for (let round = 0; round < MAX_ACQUIRE_ROUNDS; round++) {
      if (await tryLink(staged.path, file)) {
        return { info, ...(reclaimed ? { reclaimed } : {}), ...heldLock(file, workDir, info, staged) };
      }
      const holder = await readLockFile(file);
      if (!holder) continue; // released between our link and our read
      if (isProcessAlive(holder.info.pid, holder.info.startTime)) throw lockedError(holder.info);
      reclaimed = holder.info;
      await asSoleReclaimer(workDir, async () => {
        const current = await readLockFile(file);
        // Only the file judged stale may go; anything else is a newer lock taken meanwhile.
        if (sameFile(current, holder)) await rm(file, { force: true });
      });
    }
    throw new StateError('E_LOCK_CONTENDED', `could not take the run lock ${file}`, {
      hint: 'try again; if it persists, check for stuck debussy processes',
    });
  } finally {
    await rm(staged.path, { force: true });
  }
}

/** Staged files of processes that died between staging and cleanup. */
async function removeLeftovers(workDir: string): Promise<void> {
  for (const name of await readdir(workDir)) {
    if (name.startsWith(STAGED_PREFIX) && ownerIsGone(name, STAGED_PREFIX)) await rm(join(workDir, name), { force: true });
  }
}

/** Whether `current` is the very file `known` describes: an inode number alone can be reused. */
function sameFile(current: { ino: number; raw: string } | undefined, known: { ino: number; raw: string }): boolean {
  return current !== undefined && current.ino === known.ino && current.raw === known.raw;
}

function heldLock(file: string, workDir: string, info: LockInfo, first: { ino: number; raw: string }): Pick<AcquiredLock, 'keep' | 'release'> {
  let ours = first;
  let released = false;
  return {
    async keep() {
      if (released) return 'lost';
      const current = await readLockFile(file).catch(() => undefined);
      if (sameFile(current, ours)) return 'held';
      if (current !== undefined) return 'lost';
      try {
        await mkdir(workDir, { recursive: true });
        const staged = await stageLockFile(workDir, info);
        try {
          if (!(await tryLink(staged.path, file))) return 'lost';
          ours = staged;
          return 'restored';
        } finally {
          await rm(staged.path, { force: true });
        }
      } catch {
        return 'lost';
      }
    },
    async release() {
      if (released) return;
      released = true;
      const current = await readLockFile(file).catch(() => undefined);
      // Never remove a lock that is no longer ours (it was judged stale and reclaimed).
      if (sameFile(current, ours)) await rm(file, { force: true });
    },
  };
}

/**
 * The current lock and whether its holder still runs; undefined when there is no lock. `alive` is
 * judged when first read: `debussy done` inside a session reads the lock but never asks, so it
 * starts no `ps` where there is no /proc.
 */
export async function readRunLock(root: string): Promise<(LockInfo & { alive: boolean }) | undefined> {
  const lock = await readLockFile(lockPath(root));
  if (!lock) return undefined;
  const { pid, startTime } = lock.info;
  let alive: boolean | undefined;
  return Object.defineProperty({ ...lock.info }, 'alive', { enumerable: true, get: () => (alive ??= isProcessAlive(pid, startTime)) }) as LockInfo & { alive: boolean };
}
