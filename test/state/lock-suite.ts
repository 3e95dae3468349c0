import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors/index.js';
import { processStartTime } from '../../src/process/identity.js';
import { acquireRunLock, debussyDir, lockPath, readRunLock, type LockInfo } from '../../src/state/index.js';
import { liveStateDir, lockWorkDir } from '../../src/state/paths.js';
import { buildStateModule, deadPid, makeTempDir, removeDir, ScriptedChild } from './support.js';

/**
 * The run-lock tests, as a function so that each file that calls it registers them anew:
 * lock.test.ts (the default backend) and test/process/ps-backend-suites.test.ts (ps). An imported
 * test file would register them once per worker (files share a worker's modules).
 */
export function runLockSuite(): void {
  let buildDir: string;
  let stateModule: string;
  let root: string;
  let children: ScriptedChild[] = [];

  beforeAll(async () => {
    buildDir = await makeTempDir('lock-build');
    stateModule = await buildStateModule(buildDir);
  });
  afterAll(async () => removeDir(buildDir));
  beforeEach(async () => {
    root = await makeTempDir('lock');
  });
  afterEach(async () => {
    await Promise.all(children.map((child) => child.stop()));
    children = [];
    await removeDir(liveStateDir(root));
    await removeDir(root);
  });

  const request = { runId: 'r-test', planPath: '/plans/MASTER_PLAN.md' };

  async function writeLock(info: LockInfo): Promise<void> {
    await mkdir(dirname(lockPath(root)), { recursive: true });
    await writeFile(lockPath(root), JSON.stringify(info));
  }

  async function expectLocked(promise: Promise<unknown>): Promise<StateError> {
    const error: unknown = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(StateError);
    const stateError = error as StateError;
    expect(stateError.code).toBe('E_LOCKED');
    expect(stateError.exitKind).toBe('locked');
    expect(stateError.exitCode).toBe(6);
    return stateError;
  }

  /** A child process that has taken the lock and holds it until stopped. */
  async function childHoldingLock(runId: string): Promise<ScriptedChild> {
    const child = new ScriptedChild('lock-contender.js', [stateModule, root, runId]);
    children.push(child);
    expect(await child.nextLine()).toBe('ready');
    child.send('go');
    expect(JSON.parse(await child.nextLine())).toMatchObject({ acquired: true, pid: child.pid });
    return child;
  }

  describe('acquireRunLock', () => {
    it('takes a free lock, records who holds it, and releases it', async () => {
      const lock = await acquireRunLock(root, request);
      expect(lock.reclaimed).toBeUndefined();
      const onDisk = JSON.parse(await readFile(lockPath(root), 'utf8')) as unknown;
      expect(onDisk).toEqual({ pid: process.pid, startTime: processStartTime(process.pid), runId: 'r-test', planPath: request.planPath, startedAt: lock.info.startedAt });
      expect(await readRunLock(root)).toEqual({ ...lock.info, alive: true });
      await lock.release();
      await lock.release();
      expect(await readRunLock(root)).toBeUndefined();
      // No scratch files are left behind.
      expect(await readdir(lockWorkDir(root))).toEqual([]);
    });

    it('refuses while a live process holds the lock', async () => {
      const holder = await childHoldingLock('r-child');
      const error = await expectLocked(acquireRunLock(root, request));
      expect(error.message).toBe(
        `another debussy run (pid ${holder.pid}, run r-child, started ${(await readRunLock(root))?.startedAt}) is active on this project`,
      );
      expect(error.hint).toContain(`kill -INT ${holder.pid}`);
      expect(await readRunLock(root)).toMatchObject({ pid: holder.pid, runId: 'r-child', alive: true });

      holder.send('exit');
      expect(await holder.exited).toBe(0);
      expect(await readRunLock(root)).toBeUndefined();
      const lock = await acquireRunLock(root, request);
      expect(lock.reclaimed).toBeUndefined();
      await lock.release();
    });

    it('refuses a second acquisition by the same live process', async () => {
      const lock = await acquireRunLock(root, request);
      await expectLocked(acquireRunLock(root, { ...request, runId: 'r-other' }));
      await lock.release();
    });

    it('reclaims the lock of a holder that was killed', async () => {
      const holder = await childHoldingLock('r-killed');
      await holder.stop();
      expect(await readRunLock(root)).toMatchObject({ pid: holder.pid, alive: false });
      const lock = await acquireRunLock(root, request);
      expect(lock.reclaimed).toMatchObject({ pid: holder.pid, runId: 'r-killed' });
      expect(await readRunLock(root)).toMatchObject({ pid: process.pid, runId: 'r-test', alive: true });
      await lock.release();
    });

    it('reclaims a stale lock from a dead PID', async () => {
      const stale: LockInfo = { pid: await deadPid(), runId: 'r-dead', planPath: '/p.md', startedAt: '2026-01-01T00:00:00.000Z' };
      await writeLock(stale);
      const lock = await acquireRunLock(root, request);
      expect(lock.reclaimed).toEqual(stale);
      await lock.release();
    });

    it('reclaims a lock whose PID now belongs to another process', async () => {
      const startTime = processStartTime(process.pid);
      expect(startTime).toBeTypeOf('number');
      const recycled: LockInfo = { pid: process.pid, startTime: (startTime ?? 0) + 1, runId: 'r-old', planPath: '/p.md', startedAt: '2026-01-01T00:00:00.000Z' };
      await writeLock(recycled);
      expect(await readRunLock(root)).toMatchObject({ alive: false });
      const lock = await acquireRunLock(root, request);
      expect(lock.reclaimed).toEqual(recycled);
      await lock.release();
    });

    it('lets exactly one of several racing processes reclaim a stale lock', async () => {
      for (let round = 0; round < 3; round++) {
        await writeLock({ pid: await deadPid(), runId: 'r-dead', planPath: '/p.md', startedAt: '2026-01-01T00:00:00.000Z' });
        const racers = Array.from({ length: 5 }, (_, i) => new ScriptedChild('lock-contender.js', [stateModule, root, `r-racer-${i}`]));
        children.push(...racers);
        for (const racer of racers) expect(await racer.nextLine()).toBe('ready');
        for (const racer of racers) racer.send('go');
        const outcomes = await Promise.all(
          racers.map(async (racer) => JSON.parse(await racer.nextLine()) as { acquired: boolean; pid: number; code?: string; exitKind?: string }),
        );
        const winners = outcomes.filter((outcome) => outcome.acquired);
        expect(winners).toHaveLength(1);
        for (const loser of outcomes.filter((outcome) => !outcome.acquired)) expect(loser).toMatchObject({ code: 'E_LOCKED', exitKind: 'locked' });
        expect(await readRunLock(root)).toMatchObject({ pid: winners[0]?.pid, alive: true });
        for (const racer of racers) racer.send('exit');
        await Promise.all(racers.map((racer) => racer.exited));
        expect(await readRunLock(root)).toBeUndefined();
      }
    });

    it('never releases a lock that was taken over meanwhile', async () => {
      const lock = await acquireRunLock(root, request);
      // Someone judged us dead and replaced the lock (a new file, a new inode).
      await rm(lockPath(root));
      await writeLock({ pid: process.pid, runId: 'r-new', planPath: '/p.md', startedAt: '2026-01-01T00:00:00.000Z' });
      await lock.release();
      expect(await readRunLock(root)).toMatchObject({ runId: 'r-new' });
    });

    it('reports a lock file it cannot understand instead of guessing', async () => {
      await mkdir(dirname(lockPath(root)), { recursive: true });
      await writeFile(lockPath(root), 'garbage');
      await expect(acquireRunLock(root, request)).rejects.toMatchObject({ code: 'E_LOCK_UNREADABLE' });
      await expect(readRunLock(root)).rejects.toMatchObject({ code: 'E_LOCK_UNREADABLE' });
    });
  });

  describe('readRunLock', () => {
    it('is undefined when there is no lock', async () => {
      expect(await readRunLock(root)).toBeUndefined();
    });
  });

  describe('the lock of a live run', () => {
    it('lives in the git directory of a repository, where cleaning the work tree cannot reach it', async () => {
      await mkdir(join(root, '.git'), { recursive: true });
      const lock = await acquireRunLock(root, request);
      expect(lockPath(root)).toBe(join(root, '.git', 'debussy', 'run.lock'));
      await rm(debussyDir(root), { recursive: true, force: true });
      expect(await readRunLock(root)).toMatchObject({ runId: 'r-test', alive: true });
      await lock.release();
    });

    it('outside git lives in a per-user run-time directory keyed by the project path, not in .debussy', async () => {
      const lock = await acquireRunLock(root, request);
      expect(lockPath(root).startsWith(root)).toBe(false);
      await rm(debussyDir(root), { recursive: true, force: true });
      expect(await readRunLock(root)).toMatchObject({ runId: 'r-test', alive: true });
      await lock.release();
    });

    it('is put back by keep() when deleted under the run, and reported lost when another holds it', async () => {
      const lock = await acquireRunLock(root, request);
      expect(await lock.keep()).toBe('held');
      await rm(lockPath(root));
      expect(await lock.keep()).toBe('restored');
      expect(await readRunLock(root)).toMatchObject({ runId: 'r-test', pid: process.pid, alive: true });
      await lock.release();
      expect(await readRunLock(root)).toBeUndefined();

      const second = await acquireRunLock(root, request);
      await rm(lockPath(root));
      await childHoldingLock('r-other');
      expect(await second.keep()).toBe('lost');
      await second.release(); // never removes a lock that is not its own
      expect(await readRunLock(root)).toMatchObject({ runId: 'r-other', alive: true });
    });

    it('cannot be written: one clear error naming the path and the fix', async () => {
      await mkdir(join(root, '.git'), { recursive: true });
      await writeFile(join(root, '.git', 'debussy'), 'a file where the directory should be');
      const error = await acquireRunLock(root, request).then(() => undefined, (reason: unknown) => reason);
      expect(error).toBeInstanceOf(StateError);
      expect((error as StateError).code).toBe('E_STATE_WRITE');
      expect((error as StateError).message).toContain(join(root, '.git', 'debussy'));
      expect((error as StateError).hint).toContain('writable directory');
    });
  });
}
