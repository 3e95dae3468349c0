/**
 * Issue 15: the portable process path (ps, as on macOS) through the built debussy and the real
 * claude CLI against the scripted server, with /proc bypassed: DEBUSSY_PROCESS_BACKEND=ps for every
 * debussy these tests start. Lock reclaim and respect, orphan cleanup after kill -9 of debussy
 * (tool shells, a gate), and the SIGTERM-twice stop escalation. Every orphan here has left its
 * process group, so only the process table (parent links, markers in the environment) can find it.
 * Each sleep has its own duration so the process checks never see another test's processes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/exit-codes.js';
import { processStartTime, startClockOf } from '../../src/process/identity.js';
import { PROCESS_BACKEND_VAR } from '../../src/process/process-table.js';
import { lockPath } from '../../src/state/index.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, write } from './session-script.js';

const PS = { [PROCESS_BACKEND_VAR]: 'ps' };

let project: E2EProject | undefined;
const started: ChildProcess[] = [];
const outside: string[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await project?.dispose();
  project = undefined;
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  outside.push(dir);
  return dir;
}

/** The start time a ps-backed debussy would record for `pid` (epoch milliseconds). */
function psStartTime(pid: number): number {
  const saved = process.env[PROCESS_BACKEND_VAR];
  process.env[PROCESS_BACKEND_VAR] = 'ps';
  try {
    return processStartTime(pid) ?? -1;
  } finally {
    if (saved === undefined) delete process.env[PROCESS_BACKEND_VAR];
    else process.env[PROCESS_BACKEND_VAR] = saved;
  }
}

/** A `ps` first on PATH that records which command ran it (read from /proc: the test's side), then runs the real one. */
function countingPs(): { env: Record<string, string>; calls: () => string[] } {
  const dir = tempDir('debussy-ps-');
  const log = path.join(dir, 'calls.log');
  const real = execFileSync('sh', ['-c', 'command -v ps'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(dir, 'ps'), `#!/bin/sh\ntr '\\0' ' ' < /proc/$PPID/cmdline >> ${log}\necho >> ${log}\nexec ${real} "$@"\n`);
  chmodSync(path.join(dir, 'ps'), 0o755);
  return {
    env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line.length > 0) : []),
  };
}

function readLock(p: E2EProject): { pid: number; startTime?: number; runId: string } {
  return JSON.parse(readFileSync(lockPath(p.dir), 'utf8')) as { pid: number; startTime?: number; runId: string };
}

const finishes = scriptBySession({
  fresh: [write('wip.txt', 'work in progress\n'), bash('debussy done --phase 1'), done()],
  checkpoint: [bash('debussy done --phase 1'), done()],
});

describe('the run lock, judged by ps', () => {
  it('is respected while its holder runs, and reclaimed when its PID now names another process (left alone)', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Locked out, then in' }], script: finishes });
    const holder = spawn('sleep', ['361'], { stdio: 'ignore' });
    started.push(holder);
    const pid = holder.pid ?? -1;
    await waitFor('sleep 361 to start', () => livePids(/^sleep 361$/).includes(pid));
    const startTime = psStartTime(pid);
    expect(startClockOf(startTime)).toBe('epoch-ms');
    const startedAt = new Date().toISOString();
    const lock = (start: number) => `${JSON.stringify({ pid, startTime: start, runId: '20261123-000000-abcd', planPath: path.join(project?.dir ?? '', project?.planArg ?? ''), startedAt })}\n`;

    mkdirSync(path.dirname(lockPath(project.dir)), { recursive: true });
    writeFileSync(lockPath(project.dir), lock(startTime));
    const refused = await project.run(['run', project.planArg], PS);
    expect(refused.code, refused.stdout + refused.stderr).toBe(EXIT_CODES.locked.code);
    expect(refused.stdout + refused.stderr).toContain(`another debussy run (pid ${pid}`);
    expect(readFileSync(lockPath(project.dir), 'utf8')).toBe(lock(startTime));

    // The same PID with another start time: the holder died and its PID went to this sleep.
    writeFileSync(lockPath(project.dir), lock(startTime - 7_000));
    const { env: counted, calls } = countingPs();
    const reclaimed = await project.run(['run', project.planArg], { ...PS, ...counted });
    expect(reclaimed.code, reclaimed.stdout + reclaimed.stderr).toBe(0);
    expect(reclaimed.stdout).toContain(`reclaimed a stale lock from run 20261123-000000-abcd (pid ${pid} is no longer running)`);
    expect(livePids(/^sleep 361$/)).toEqual([pid]); // the process that got the PID is not touched
    expect(existsSync(lockPath(project.dir))).toBe(false);
    // ps answered the run's questions; the agent's `debussy done` asked none (a hot path).
    expect(calls().filter((cmd) => /\brun\b/.test(cmd)).length).toBeGreaterThan(0);
    expect(calls().filter((cmd) => /\bdone\b/.test(cmd))).toEqual([]);
  });
});

describe('kill -9 of a ps-backed debussy', () => {
  it('its live lock is respected; the next run reclaims it and ends the orphaned tool shells', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Killed in the middle' }],
      script: scriptBySession({
        fresh: [write('wip.txt', 'work in progress\n'), bash('(sleep 362)'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const first = project.start(['run', project.planArg], PS);
    started.push(first.child);
    await waitWhileRunning(first, 'the agent to run sleep 362', () => livePids(/^sleep 362$/).length > 0);
    const lock = readLock(project);
    expect(lock.pid).toBe(first.child.pid);
    expect(startClockOf(lock.startTime ?? 0)).toBe('epoch-ms'); // recorded by ps, not /proc
    expect(Math.abs((lock.startTime ?? 0) - Date.now())).toBeLessThan(120_000);

    const second = await project.run(['run', project.planArg], PS);
    expect(second.code, second.stdout + second.stderr).toBe(EXIT_CODES.locked.code);

    first.child.kill('SIGKILL');
    await first.done;
    const orphans = livePids(/^sleep 362$/);
    expect(orphans.length).toBeGreaterThan(0); // the orphans are really there

    const next = await project.run(['run', project.planArg], PS);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.stdout).toMatch(/reclaimed a stale lock from run \S+ \(pid \d+ is no longer running\)/);
    expect(next.stdout).toMatch(/ended \d+ process\(es\) it left behind/);
    expect(livePids(/^sleep 362$/)).toEqual([]);
    expect(eventsOf(await project.journal(), 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed']]);
  });

  it('the next run ends a gate the dead run left running', async () => {
    const flags = tempDir('debussy-flags-');
    const gate = `test -f ${flags}/ran && exit 0; touch ${flags}/ran; setsid sleep 363 & sleep 364`;
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Killed while verifying', gates: [{ name: 'slow', command: gate }] }], script: finishes });
    const first = project.start(['run', project.planArg], PS);
    started.push(first.child);
    await waitWhileRunning(first, 'the gate to run sleep 364', () => livePids(/^sleep 364$/).length > 0, 45_000);
    first.child.kill('SIGKILL');
    await first.done;
    expect(livePids(/^sleep 36[34]$/).length).toBe(2); // the orphans are really there

    const next = await project.run(['run', project.planArg], PS);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.stdout).toMatch(/ended \d+ process\(es\)/);
    expect(livePids(/^sleep 36[34]$/)).toEqual([]);
  });
});

describe('SIGTERM twice, ps-backed', () => {
  it('ends a session that ignores the stop, and what it started outside its group; nothing left running', async () => {
    // An agent that ignores SIGINT and SIGTERM (the real CLI cannot be made to), with one child
    // in its group and one that left it (setsid): only the process table finds the second.
    const dir = tempDir('debussy-stubborn-');
    const agent = path.join(dir, 'stubborn-agent.sh');
    writeFileSync(agent, `#!/bin/sh\ntrap '' INT TERM\necho '{"type":"system","subtype":"init","session_id":"s-stubborn","model":"m","tools":[]}'\nsetsid sleep 365 &\nsleep 366 &\nwait\nwait\n`);
    chmodSync(agent, 0o755);
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Stubborn' }], script: [], config: { claude_command: agent, stop_grace: '60s' } });
    const run = project.start(['run', project.planArg], PS);
    started.push(run.child);
    await waitFor('the agent to run both sleeps', () => livePids(/^sleep 36[56]$/).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a snapshot of the session's processes
    run.child.kill('SIGTERM');
    await waitFor('debussy to ask the session to stop', () => run.child.exitCode === null && (project?.sessionLogs() ?? '').includes('): SIGINT'));
    run.child.kill('SIGTERM');
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stderr).toContain('debussy: ending now');
    expect(livePids(/^sleep 36[56]$/)).toEqual([]);
    expect(eventsOf(await project.journal(), 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
  });
});

/** waitFor, failing with debussy's output when debussy ends first or the wait times out. */
async function waitWhileRunning(run: ReturnType<E2EProject['start']>, what: string, check: () => boolean, timeoutMs?: number): Promise<void> {
  let ended = false;
  void run.done.then(() => (ended = true));
  await waitFor(what, () => ended || check(), timeoutMs).catch(() => undefined);
  if (ended || !check()) {
    run.child.kill('SIGKILL');
    const result = await run.done;
    throw new Error(`debussy ended or stalled before ${what}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
}


