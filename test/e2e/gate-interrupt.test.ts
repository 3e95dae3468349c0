/**
 * Issue 12 (interruptions): gates and git hooks under Ctrl-C, kill -9 and timeouts, through the
 * built debussy and the real claude CLI against the scripted server. Each sleep has its own
 * duration so the process checks never see another test's processes.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, write } from './session-script.js';

let project: E2EProject | undefined;
const outside: string[] = [];
afterEach(async () => {
  await project?.dispose();
  project = undefined;
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory outside the repository, for flag files that must not be committed. */
function flagDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-flags-'));
  outside.push(dir);
  return dir;
}

const finishes = scriptBySession({
  fresh: [write('wip.txt', 'work in progress\n'), bash('debussy done --phase 1'), done()],
  checkpoint: [bash('debussy done --phase 1'), done()],
});

function installHook(p: E2EProject, name: string, body: string): void {
  const hook = path.join(p.dir, '.git', 'hooks', name);
  writeFileSync(hook, `#!/bin/sh\n${body}\n`);
  chmodSync(hook, 0o755);
}

describe('Ctrl-C during verification', () => {
  it('stops the gate at once; the run exits 130 with the phase interrupted, not completed', async () => {
    // No baseline run of the gate before the session: the first `sleep 341` is the verification's.
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Last phase', gates: [{ name: 'slow', command: 'sleep 341' }] }], script: finishes, config: { baseline_gates: false } });
    const run = project.start(['run', project.planArg]);
    await waitFor('the gate to run sleep 341', () => livePids(/^sleep 341$/).length > 0, 45_000);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).not.toContain('run completed');
    expect(livePids(/^sleep 341$/)).toEqual([]);
    const events = await project.journal();
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'in_progress' }]);
    expect(eventsOf(events, 'gate_result')).toEqual([]); // a stopped gate has no verdict
    expect(eventsOf(events, 'commit').find((c) => c.purpose === 'interrupted')).toBeDefined();
    expect((await project.run(['status'])).stdout).toMatch(/resumes phase 1/);
  });
});

describe('Ctrl-C while a git hook hangs', () => {
  it('ends git and the hook at once; the run exits 130, the work stays in the tree, no index lock is left', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Hooked' }], script: finishes });
    installHook(project, 'pre-commit', 'sleep 342');
    const run = project.start(['run', project.planArg]);
    await waitFor('the hook to run sleep 342', () => livePids(/^sleep 342$/).length > 0, 45_000);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(livePids(/^sleep 342$/)).toEqual([]);
    expect(existsSync(path.join(project.dir, '.git', 'index.lock'))).toBe(false);
    expect(project.read('wip.txt')).toBe('work in progress\n');
    const events = await project.journal();
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'in_progress' }]);
    expect(JSON.stringify(eventsOf(events, 'commit_failed'))).toContain('git commit stopped by the user');
  });
});

describe('kill -9 of debussy', () => {
  it('the next run ends a gate the dead run left running', async () => {
    const flags = flagDir();
    const gate = `test -f ${flags}/ran && exit 0; touch ${flags}/ran; sleep 343`;
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Killed while verifying', gates: [{ name: 'slow', command: gate }] }], script: finishes });
    const first = project.start(['run', project.planArg]);
    await waitFor('the gate to run sleep 343', () => livePids(/^sleep 343$/).length > 0, 45_000);
    first.child.kill('SIGKILL');
    await first.done;
    expect(livePids(/^sleep 343$/).length).toBeGreaterThan(0); // the orphan is really there

    const next = await project.run(['run', project.planArg]);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.stdout).toMatch(/ended \d+ process\(es\)/);
    expect(livePids(/^sleep 343$/)).toEqual([]);
  });

  it('the next run ends a git commit whose hook hung, and its hook; no index lock is left', async () => {
    const flags = flagDir();
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Killed while committing' }], script: finishes });
    installHook(project, 'pre-commit', `test -f ${flags}/ran && exit 0; touch ${flags}/ran; sleep 344`);
    const first = project.start(['run', project.planArg]);
    await waitFor('the hook to run sleep 344', () => livePids(/^sleep 344$/).length > 0, 45_000);
    first.child.kill('SIGKILL');
    await first.done;
    expect(livePids(/^sleep 344$/).length).toBeGreaterThan(0);

    const next = await project.run(['run', project.planArg]);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(livePids(/^sleep 344$/)).toEqual([]);
    expect(existsSync(path.join(project.dir, '.git', 'index.lock'))).toBe(false);
    // The agent's work is never lost: committed, or still in the tree.
    expect(project.read('wip.txt')).toBe('work in progress\n');
  });
});

describe('gates that leave processes behind', () => {
  it('a gate whose shell exits 0 passes at once with its output, its background child ended', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Background', gates: [{ name: 'bg', command: 'sleep 345 & echo started' }] }], script: finishes,
      config: { gate_timeout: '3s', max_retries: 0 },
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'gate_result')).toMatchObject([{ name: 'bg', passed: true, exitCode: 0, outputTail: 'started' }]);
    expect(livePids(/^sleep 345$/)).toEqual([]);
  });

  it('the timeout ends the whole gate, descendants that left its group with setsid included', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Escapes', gates: [{ name: 'escape', command: 'setsid sleep 346 & sleep 347' }] }], script: finishes,
      config: { gate_timeout: '3s', max_retries: 0 },
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const [gate] = eventsOf(await project.journal(), 'gate_result');
    expect(gate).toMatchObject({ name: 'escape', passed: false });
    expect(gate?.outputTail).toContain('gate timed out after 3 s');
    expect(livePids(/^sleep 34[67]$/)).toEqual([]);
  });
});
