import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive, processStartTime } from '../../src/process/identity.js';
import { deadPid } from './support.js';

const stopAfter: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stopAfter.splice(0)) await stop();
});

function procState(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
  } catch {
    return undefined;
  }
}

describe('processStartTime', () => {
  it('reads a stable start time for a live process', () => {
    const start = processStartTime(process.pid);
    expect(start).toBeTypeOf('number');
    expect(start).toBeGreaterThan(0);
    expect(processStartTime(process.pid)).toBe(start);
  });

  it('is undefined for a process that is gone, or a PID that is not one', async () => {
    expect(processStartTime(await deadPid())).toBeUndefined();
    expect(processStartTime(0)).toBeUndefined();
    expect(processStartTime(-1)).toBeUndefined();
  });

  it('parses a command name containing spaces and parentheses', async () => {
    // A process renames itself; its /proc stat then has ") (" inside the name field.
    const child = spawn(process.execPath, ['-e', 'process.title = "a) (b c"; console.log("ready"); setInterval(() => {}, 1000)'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    stopAfter.push(async () => {
      child.kill('SIGKILL');
      await new Promise((done) => child.on('close', done));
    });
    for await (const line of createInterface({ input: child.stdout })) if (line === 'ready') break;
    const pid = child.pid ?? 0;
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const expected = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]);
    expect(processStartTime(pid)).toBe(expected);
    expect(isProcessAlive(pid, expected)).toBe(true);
  });
});

describe('isProcessAlive', () => {
  it('knows this process, and only with its own start time', () => {
    const start = processStartTime(process.pid) ?? 0;
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(process.pid, start)).toBe(true);
    expect(isProcessAlive(process.pid, start + 1)).toBe(false);
  });

  it('says no for a reaped process and for PIDs that address groups', async () => {
    expect(isProcessAlive(await deadPid())).toBe(false);
    for (const pid of [0, -1, 1.5, Number.NaN]) expect(isProcessAlive(pid)).toBe(false);
  });

  it('counts a zombie as gone', async () => {
    // The background sleep exits after its parent shell has exec'd into `sleep 30`, which never
    // reaps children: it stays a zombie until the test ends its parent.
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    stopAfter.push(async () => {
      parent.kill('SIGKILL');
      await new Promise((done) => parent.on('close', done));
    });
    let zombie = 0;
    for await (const line of createInterface({ input: parent.stdout })) {
      zombie = Number(line);
      break;
    }
    for (let i = 0; i < 400 && procState(zombie) !== 'Z'; i++) await sleep(25);
    expect(procState(zombie)).toBe('Z');
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(isProcessAlive(zombie)).toBe(false);
  });
});
