import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive, processStartTime } from '../../src/process/identity.js';
import { findSessionProcesses, terminateProcesses } from '../../src/process/tree.js';
import { pidIn, until } from '../e2e/processes.js';

/**
 * The process-tree tests, as a function so that each file that calls it registers them anew:
 * process-tree.test.ts (the default backend) and test/process/ps-backend-suites.test.ts (ps). An
 * imported test file would register them once per worker (files share a worker's modules).
 */
export function processTreeSuite(): void {
  let dir: string;
  const started: ChildProcess[] = [];
  // Processes a test started outside of `started`, with their start time so a recycled pid is never hit.
  const strays: Array<{ pid: number; startTime: number | undefined }> = [];
  const stray = (pid: number) => strays.push({ pid, startTime: processStartTime(pid) });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'debussy-tree-'));
  });

  afterEach(() => {
    for (const { pid, startTime } of strays.splice(0)) {
      if (startTime === undefined || !isProcessAlive(pid, startTime)) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    for (const child of started.splice(0)) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  function sh(script: string, env: Record<string, string> = {}): ChildProcess {
    const child = spawn('sh', ['-c', script], { env: { ...process.env, ...env }, stdio: 'ignore' });
    started.push(child);
    return child;
  }

  async function exitOf(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => child.once('exit', resolve));
  }

  describe('findSessionProcesses', () => {
    it('finds descendants through parent links, the root excluded', async () => {
      const pidFile = path.join(dir, 'pid');
      const shell = sh(`sleep 30 & echo $! > ${pidFile}; wait`);
      const sleeper = await until(() => pidIn(pidFile), 'the sleep pid');
      stray(sleeper);
      const found = findSessionProcesses(shell.pid ?? -1);
      expect(found.map((r) => r.pid)).toContain(sleeper);
      expect(found.map((r) => r.pid)).not.toContain(shell.pid);
      expect(found.find((r) => r.pid === sleeper)?.startTime).toBe(processStartTime(sleeper));
    });

    it('finds a setsid grandchild by its marker after its parent was SIGKILLed, and terminates it', async () => {
      const marker = { name: 'DEBUSSY_SESSION_MARKER', value: randomUUID() };
      const pidFile = path.join(dir, 'pid');
      const shell = sh(`setsid sleep 30 & echo $! > ${pidFile}; wait`, { [marker.name]: marker.value });
      const sleeper = await until(() => pidIn(pidFile), 'the sleep pid');
      stray(sleeper);
      shell.kill('SIGKILL');
      await exitOf(shell);
      // Re-parented: no parent link leads to it any more, only the marker does.
      expect(findSessionProcesses(shell.pid ?? -1).map((r) => r.pid)).not.toContain(sleeper);
      const found = findSessionProcesses(shell.pid ?? -1, marker);
      expect(found.map((r) => r.pid)).toEqual([sleeper]);
      expect(isProcessAlive(sleeper)).toBe(true);
      expect(await terminateProcesses(found, 2_000)).toBe(1);
      expect(isProcessAlive(sleeper)).toBe(false);
    });

    it('does not find processes of another marker', async () => {
      const pidFile = path.join(dir, 'pid');
      sh(`setsid sleep 30 & echo $! > ${pidFile}; wait`, { DEBUSSY_SESSION_MARKER: 'other' });
      stray(await until(() => pidIn(pidFile), 'the sleep pid'));
      expect(findSessionProcesses(-1, { name: 'DEBUSSY_SESSION_MARKER', value: randomUUID() })).toEqual([]);
      // A marker that is a prefix of another value does not match it either.
      expect(findSessionProcesses(-1, { name: 'DEBUSSY_SESSION_MARKER', value: 'oth' })).toEqual([]);
    });
  });

  describe('terminateProcesses', () => {
    it('SIGKILLs a process that ignores SIGTERM once the grace is over', async () => {
      const readyFile = path.join(dir, 'ready');
      const stubborn = sh(`trap '' TERM; echo ready > ${readyFile}; while :; do sleep 0.05; done`);
      await until(() => (existsSync(readyFile) ? true : undefined), 'the trap');
      const ref = { pid: stubborn.pid ?? -1 };
      expect(await terminateProcesses([ref], 300)).toBe(1);
      await exitOf(stubborn);
      expect(stubborn.signalCode).toBe('SIGKILL');
    });

    it('ends the whole group of a group leader', async () => {
      const pidFile = path.join(dir, 'pids');
      const leader = spawn('setsid', ['sh', '-c', `sleep 30 & a=$!; sleep 30 & echo "$$ $a $!" > ${pidFile}; wait`], { stdio: 'ignore' });
      started.push(leader);
      // The shell creates the file before echo writes to it: wait for the whole line.
      const pids = await until(() => {
        const line = existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '';
        return line.endsWith('\n') ? line.trim().split(' ').map(Number) : undefined;
      }, 'the pids');
      pids.forEach(stray);
      const [shellPid, ...sleepers] = pids as [number, number, number];
      expect(await terminateProcesses([{ pid: shellPid, startTime: processStartTime(shellPid) }], 2_000)).toBe(1);
      for (const pid of sleepers) await until(() => (isProcessAlive(pid) ? undefined : true), `sleep ${pid} to end`);
    });

    it('leaves alone a process whose start time says it is not the one referred to', async () => {
      const child = sh('exec sleep 30');
      const pid = child.pid ?? -1;
      const startTime = await until(() => processStartTime(pid), 'the start time');
      expect(await terminateProcesses([{ pid, startTime: startTime + 1 }], 100)).toBe(0);
      expect(isProcessAlive(pid)).toBe(true);
    });

    it('returns 0 for processes that are already gone', async () => {
      const child = sh('exit 0');
      await exitOf(child);
      expect(await terminateProcesses([{ pid: child.pid ?? -1 }], 100)).toBe(0);
    });
  });
}
