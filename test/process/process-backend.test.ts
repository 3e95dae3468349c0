/**
 * The choice of process table and the clocks of start times: a record of one backend is judged
 * correctly by the other (the same clock compares exactly; another clock falls back to the PID).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive, processStartTime, sameStart, startClockOf } from '../../src/process/identity.js';
import { chooseProcessBackend, processTable, PROCESS_BACKEND_VAR } from '../../src/process/process-table.js';
import { findDescendants, findMarkedProcesses } from '../../src/process/tree.js';

const started: ChildProcess[] = [];
const saved = process.env[PROCESS_BACKEND_VAR];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  if (saved === undefined) delete process.env[PROCESS_BACKEND_VAR];
  else process.env[PROCESS_BACKEND_VAR] = saved;
});

function sleeper(env: Record<string, string> = {}): number {
  const child = spawn('sleep', ['30'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  started.push(child);
  return child.pid ?? -1;
}

describe('chooseProcessBackend', () => {
  it.each([
    [undefined, true, 'procfs'],
    [undefined, false, 'ps'],
    ['ps', true, 'ps'],
    ['procfs', false, 'procfs'],
    ['', true, 'procfs'],
    ['PS', true, 'procfs'],
    ['bogus', true, 'procfs'],
  ] as const)('forced %j, /proc mounted %s: %s', (forced, hasProcfs, expected) => {
    expect(chooseProcessBackend(forced, hasProcfs)).toBe(expected);
  });
});

describe('start clocks', () => {
  it.each([
    [376651, 'ticks'],
    [0, 'ticks'],
    [99_999_999_999, 'ticks'],
    [1795464849000, 'epoch-ms'],
  ] as const)('%d is in %s', (value, clock) => {
    expect(startClockOf(value)).toBe(clock);
  });

  it.each([
    [376651, 376651, true],
    [376651, 376652, false],
    [1795464849000, 1795464849000, true],
    [1795464849000, 1795464850000, false],
    // Another clock cannot be compared: the PID alone decides.
    [376651, 1795464849000, true],
    [1795464849000, 376651, true],
  ])('recorded %d, observed %d: same process %s', (recorded, observed, expected) => {
    expect(sameStart(recorded, observed)).toBe(expected);
  });
});

describe('one process seen by both backends', () => {
  it('has a start time in each clock; each judges its own exactly and the other by PID', async () => {
    const pid = sleeper();
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.env[PROCESS_BACKEND_VAR] = 'procfs';
    const ticks = processStartTime(pid) ?? -1;
    process.env[PROCESS_BACKEND_VAR] = 'ps';
    expect(processTable().backend).toBe('ps');
    const ms = processStartTime(pid) ?? -1;
    expect(startClockOf(ticks)).toBe('ticks');
    expect(startClockOf(ms)).toBe('epoch-ms');
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
    expect(isProcessAlive(pid, ms)).toBe(true);
    expect(isProcessAlive(pid, ms - 1000)).toBe(false);
    expect(isProcessAlive(pid, ticks)).toBe(true); // a procfs record, judged by the PID
    process.env[PROCESS_BACKEND_VAR] = 'procfs';
    expect(isProcessAlive(pid, ticks)).toBe(true);
    expect(isProcessAlive(pid, ticks + 1)).toBe(false);
    expect(isProcessAlive(pid, ms)).toBe(true); // a ps record, judged by the PID
  });

  it('finds a marked process through the environment ps shows', async () => {
    process.env[PROCESS_BACKEND_VAR] = 'ps';
    const marker = { name: 'DEBUSSY_GATE_MARKER', value: `m-${process.pid}-${Date.now()}` };
    const pid = sleeper({ [marker.name]: marker.value });
    await new Promise((resolve) => setTimeout(resolve, 100)); // exec'd, with its own environment
    expect(findMarkedProcesses(marker).map((r) => r.pid)).toEqual([pid]);
    expect(findMarkedProcesses({ ...marker, value: marker.value.slice(0, -1) })).toEqual([]);
    expect(findMarkedProcesses({ ...marker, value: marker.value.slice(0, -1), prefix: true }).map((r) => r.pid)).toEqual([pid]);
  });
});

describe.each(['procfs', 'ps'])('findDescendants (%s)', (backend) => {
  it("lists a root's descendants only while the root is the process referred to", async () => {
    process.env[PROCESS_BACKEND_VAR] = backend;
    const shell = spawn('sh', ['-c', 'sleep 31 & wait'], { stdio: 'ignore' });
    started.push(shell);
    const root = shell.pid ?? -1;
    let found: number[] = [];
    for (let i = 0; i < 50 && found.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      found = findDescendants({ pid: root, startTime: processStartTime(root) ?? -1 }).map((r) => r.pid);
    }
    expect(found).toHaveLength(1);
    expect(findDescendants({ pid: root })).toHaveLength(1);
    const startTime = processStartTime(root) ?? -1;
    expect(findDescendants({ pid: root, startTime: startTime + (startClockOf(startTime) === 'ticks' ? 1 : 1000) })).toEqual([]);
    for (const pid of found) process.kill(pid, 'SIGKILL');
  });
});

describe.each([
  ['fails', 'exit 1'],
  ['prints something else', 'echo "ps: illegal option -- E"; echo "usage: ps [-AaCcEefhjlMmrSTvwXx]"'],
])('a ps that %s', (_what, body) => {
  it('cannot tell: the PID alone decides, nothing is found, nothing throws', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-broken-ps-'));
    const savedPath = process.env.PATH;
    try {
      writeFileSync(path.join(dir, 'ps'), `#!/bin/sh\n${body}\n`);
      chmodSync(path.join(dir, 'ps'), 0o755);
      const marker = { name: 'DEBUSSY_GATE_MARKER', value: `b-${process.pid}-${Date.now()}` };
      const pid = sleeper({ [marker.name]: marker.value });
      await new Promise((resolve) => setTimeout(resolve, 100));
      process.env[PROCESS_BACKEND_VAR] = 'ps';
      process.env.PATH = `${dir}:${savedPath ?? ''}`;
      expect(processTable().readMany([pid])).toBeUndefined();
      expect(processStartTime(pid)).toBeUndefined();
      expect(isProcessAlive(pid, 1795464849000)).toBe(true); // errs towards "still running"
      expect(findMarkedProcesses(marker)).toEqual([]);
    } finally {
      process.env.PATH = savedPath;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
