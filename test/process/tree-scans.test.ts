/**
 * The cheaper scans on real processes: a marker search given its root's start time skips what
 * started before the root (in both clocks), and under procfs a root's descendants are read down
 * through the children lists, grandchildren and a child a non-main thread forked included, with
 * the same result as the full scan. Every process a test starts is stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive, processStartTime } from '../../src/process/identity.js';
import { PROCESS_BACKEND_VAR } from '../../src/process/process-table.js';
import { procfsTable } from '../../src/process/procfs-table.js';
import { findDescendants, findMarkedProcesses, markerRootStartTime, type ProcessRef } from '../../src/process/tree.js';

const started: ChildProcess[] = [];
/** Processes started by the ones above, with their start time so a reused PID is never hit. */
const strays: ProcessRef[] = [];
const savedBackend = process.env[PROCESS_BACKEND_VAR];

/** Descendants of `rootPid` by parent links over the whole table: what the children lists must match. */
function fullScanDescendants(rootPid: number): number[] {
  const entries = procfsTable.list();
  const found = new Set<number>();
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const entry of entries) {
      if (entry.ppid === pid && !found.has(entry.pid)) {
        found.add(entry.pid);
        queue.push(entry.pid);
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

afterEach(() => {
  // What a started process started, found (by the full scan, not the walk under test) before it is
  // killed: its children are re-parented then.
  for (const child of started) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    for (const pid of fullScanDescendants(child.pid)) {
      const startTime = processStartTime(pid);
      strays.push(startTime === undefined ? { pid } : { pid, startTime });
    }
  }
  for (const ref of strays.splice(0)) {
    if (!isProcessAlive(ref.pid, ref.startTime)) continue;
    try {
      process.kill(ref.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const child of started.splice(0)) child.kill('SIGKILL');
  if (savedBackend === undefined) delete process.env[PROCESS_BACKEND_VAR];
  else process.env[PROCESS_BACKEND_VAR] = savedBackend;
});

function start(command: string, args: string[], env: Record<string, string> = {}): number {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  started.push(child);
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  return child.pid;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `root` has `count` descendants. */
async function descendantsOf(root: ProcessRef, count: number): Promise<ProcessRef[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = findDescendants(root);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${root.pid} has ${found.length} descendants, not ${count}`);
    await sleep(20);
  }
}

const sorted = (refs: readonly ProcessRef[]) => refs.map((ref) => ref.pid).sort((a, b) => a - b);

describe.each([
  // procfs counts ticks of 10 ms; ps prints whole seconds and is allowed a second of slack.
  ['procfs', 100],
  ['ps', 2_100],
])('a marker search given its root start time (%s)', (backend, gapMs) => {
  it('skips a marked process that started before the root, finds the root and what it started', async () => {
    process.env[PROCESS_BACKEND_VAR] = backend;
    const marker = { name: 'DEBUSSY_GATE_MARKER', value: `bound-${process.pid}-${Date.now()}` };
    const early = start('sleep', ['30'], { [marker.name]: marker.value });
    await sleep(gapMs);
    const rootPid = start('sh', ['-c', 'sleep 31 & wait'], { [marker.name]: marker.value });
    const rootStartTime = processStartTime(rootPid);
    expect(rootStartTime).toBeDefined();
    const [grandchild] = await descendantsOf({ pid: rootPid, ...(rootStartTime === undefined ? {} : { startTime: rootStartTime }) }, 1);

    expect(sorted(findMarkedProcesses(marker))).toEqual([early, rootPid, grandchild?.pid].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(sorted(findMarkedProcesses({ ...marker, ...(rootStartTime === undefined ? {} : { rootStartTime }) }))).toEqual(
      [rootPid, grandchild?.pid].sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
  });
});

describe('markerRootStartTime', () => {
  it('reads the start time under procfs, where it spares reading environments', () => {
    process.env[PROCESS_BACKEND_VAR] = 'procfs';
    const pid = start('sleep', ['30']);
    expect(markerRootStartTime(pid)).toBe(processStartTime(pid));
    expect(markerRootStartTime(undefined)).toBeUndefined();
  });

  it('reads nothing under ps, where it would cost a ps run of its own', () => {
    process.env[PROCESS_BACKEND_VAR] = 'ps';
    expect(markerRootStartTime(start('sleep', ['30']))).toBeUndefined();
  });
});

describe('findDescendants through the children lists (procfs)', () => {
  it('finds grandchildren and a child a worker thread forked, as the full scan does', async () => {
    process.env[PROCESS_BACKEND_VAR] = 'procfs';
    // A node root (many threads): its main thread starts a shell with a sleep; a worker thread starts another sleep.
    const script = [
      "const { spawn } = require('node:child_process');",
      "const { Worker } = require('node:worker_threads');",
      "spawn('sh', ['-c', 'sleep 32 & wait'], { stdio: 'ignore' });",
      "new Worker(\"require('node:child_process').spawn('sleep', ['33'], { stdio: 'ignore' }); setTimeout(() => {}, 60000);\", { eval: true });",
      'setTimeout(() => {}, 60000);',
    ].join('\n');
    const rootPid = start(process.execPath, ['-e', script]);
    const root = { pid: rootPid, startTime: processStartTime(rootPid) ?? -1 };
    const found = await descendantsOf(root, 3);

    expect(found).toHaveLength(3);
    expect(procfsTable.listTree?.(rootPid)?.map((entry) => entry.pid).sort((a, b) => a - b)).toEqual([rootPid, ...sorted(found)].sort((a, b) => a - b));
    expect(sorted(found)).toEqual(fullScanDescendants(rootPid));
    for (const ref of found) expect(ref.startTime).toBe(processStartTime(ref.pid));
    // The worker's sleep is the root's child, yet not in the main thread's list: only another thread's list has it.
    const mainList = readFileSync(`/proc/${rootPid}/task/${rootPid}/children`, 'latin1').trim().split(' ').map(Number);
    const fromWorker = found.filter((ref) => !mainList.includes(ref.pid) && procfsTable.readMany([ref.pid])?.get(ref.pid)?.ppid === rootPid);
    expect(fromWorker).toHaveLength(1);
  });

  it('finds nothing once the root is not the process referred to, or is gone', async () => {
    process.env[PROCESS_BACKEND_VAR] = 'procfs';
    const rootPid = start('sh', ['-c', 'sleep 34 & wait']);
    const startTime = processStartTime(rootPid) ?? -1;
    strays.push(...(await descendantsOf({ pid: rootPid, startTime }, 1))); // orphaned when the root is killed below
    expect(findDescendants({ pid: rootPid, startTime: startTime + 1 })).toEqual([]);
    const child = started.find((candidate) => candidate.pid === rootPid);
    child?.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    expect(findDescendants({ pid: rootPid, startTime })).toEqual([]);
  });
});
