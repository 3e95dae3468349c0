/**
 * Gates run as real shells: a gate ends when its shell exits (whatever it left in the background is
 * ended, not waited for), the timeout and a stop bound everything it started, setsid included.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGateCommand, runGates } from '../../src/verification/run-gates.js';
import { livePids, waitFor } from '../e2e/processes.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-gates-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('runGateCommand', () => {
  it('a failed gate names what failed in its whole output, beyond the tail it keeps', async () => {
    // The failing test is printed first, then 20,000 characters of noise: out of the 4,000-character tail.
    const outcome = await runGateCommand('tests', `echo ' FAIL  a.test.ts > early'; i=0; while [ $i -lt 400 ]; do echo "noise line $i ..........................................."; i=$((i+1)); done; echo ' FAIL  b.test.ts > late'; exit 1`, tempDir(), 20_000);
    expect(outcome.passed).toBe(false);
    expect(outcome.outputTail).not.toContain('early');
    expect(outcome.failures).toEqual({ by: 'tests', items: ['a.test.ts > early', 'b.test.ts > late'] });
    const passed = await runGateCommand('ok', "echo ' FAIL  but exit 0'", tempDir(), 20_000);
    expect(passed.failures).toBeUndefined();
  });

  it('passes when its shell exits 0, even though a background child still holds its output', async () => {
    const outcome = await runGateCommand('bg', 'sleep 311 & echo started', tempDir(), 20_000);
    expect(outcome).toMatchObject({ passed: true, exitCode: 0, timedOut: false, interrupted: false, outputTail: 'started' });
    expect(outcome.durationMs).toBeLessThan(10_000);
    expect(livePids(/^sleep 311$/)).toEqual([]);
  });

  it('ends a child that left the process group with setsid when the shell exits', async () => {
    const outcome = await runGateCommand('setsid', 'setsid sleep 312 & echo detached', tempDir(), 20_000);
    expect(outcome).toMatchObject({ passed: true, outputTail: 'detached' });
    expect(livePids(/^sleep 312$/)).toEqual([]);
  });

  it('times out as a whole: the shell, its group and setsid descendants', async () => {
    const outcome = await runGateCommand('slow', 'setsid sleep 313 & sleep 314; echo never', tempDir(), 1000);
    expect(outcome).toMatchObject({ passed: false, timedOut: true, interrupted: false });
    expect(outcome.outputTail).toContain('gate timed out after 1 s');
    expect(livePids(/^sleep 31[34]$/)).toEqual([]);
  });

  it('fails with the exit code and the output tail', async () => {
    const outcome = await runGateCommand('red', 'echo one; echo two >&2; exit 3', tempDir(), 20_000);
    expect(outcome).toMatchObject({ passed: false, exitCode: 3, timedOut: false, outputTail: 'one\ntwo' });
  });

  it('runs in a process group of its own, with the environment it is given and its marker', async () => {
    const outcome = await runGateCommand('group', 'ps -o pgid= -p $$; echo "$DEBUSSY_OWNER ${#DEBUSSY_GATE_MARKER}"', tempDir(), 20_000, { PATH: process.env.PATH, DEBUSSY_OWNER: '4242-77' });
    const [pgid, env] = outcome.outputTail.split('\n').map((text) => text.trim());
    const own = execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim();
    expect(outcome.passed).toBe(true);
    expect(pgid).toMatch(/^\d+$/);
    expect(pgid).not.toBe(own);
    expect(env).toBe('4242-77 36');
  });

  it('fails with one line saying why when the gate cannot start at all', async () => {
    const outcome = await runGateCommand('nowhere', 'true', path.join(tempDir(), 'missing'), 20_000);
    expect(outcome).toMatchObject({ passed: false, exitCode: null, timedOut: false, interrupted: false });
    expect(outcome.outputTail).toMatch(/^\(debussy: could not start the gate: .*ENOENT/);
  });

  it('stops at once on an interrupt, and a force stop kills a gate that ignores SIGTERM', async () => {
    const interrupt = new AbortController();
    const forceStop = new AbortController();
    const running = runGateCommand('stubborn', "trap '' TERM; sleep 315 & wait; echo after", tempDir(), 60_000, process.env, { interrupt: interrupt.signal, forceStop: forceStop.signal });
    await waitFor('the gate to start sleep 315', () => livePids(/^sleep 315$/).length > 0);
    interrupt.abort();
    forceStop.abort();
    const outcome = await running;
    expect(outcome).toMatchObject({ passed: false, timedOut: false, interrupted: true });
    expect(outcome.outputTail).toContain('gate stopped by the user');
    expect(livePids(/^sleep 315$/)).toEqual([]);
  });
});

describe('runGates', () => {
  it('starts no gate after an interrupt', async () => {
    const interrupt = new AbortController();
    interrupt.abort();
    const outcomes = await runGates([{ name: 'a', command: 'true', commandSource: 'plan', description: '', line: 1 }], tempDir(), 5000, process.env, { interrupt: interrupt.signal });
    expect(outcomes).toEqual([]);
  });
});
