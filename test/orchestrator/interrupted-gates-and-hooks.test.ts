/**
 * Ctrl-C while debussy's own processes run: a gate during verification, a git hook during the
 * phase's commit. Through the whole orchestrator (runPlan) with the in-process agent; the gate and
 * the hook are real shells, and Ctrl-C is what the run command's SIGINT handler does (the run's
 * AbortController, git commands ended), done here once the gate or the hook has started (it
 * touches a flag file).
 * The binary's own signal handling, and kill -9 of debussy, stay in test/e2e/ (interruption.test.ts,
 * gate-interrupt.test.ts). Each sleep has its own duration so the process checks never see another
 * test's processes.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeDryRun } from '../../src/cli/dry-run.js';
import { describeNext } from '../../src/cli/status-next.js';
import { defaultConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { stopRunningGit } from '../../src/git/run-git.js';
import { parsePlan } from '../../src/plan/index.js';
import { livePids, waitFor } from '../e2e/processes.js';
import { done, FAST, LoopProject, ofType, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A flag file outside the repository (never committed): the gate or hook touches it when it starts. */
function flagFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-flags-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'started');
}

function project(phases: Parameters<typeof LoopProject.create>[0]): LoopProject {
  const p = LoopProject.create(phases, { git: true });
  cleanups.push(() => p.cleanup());
  return p;
}

/**
 * What the run command does on the first Ctrl-C (cli/commands/run.ts): the run's interrupt, and
 * every git command of this process ended (process-wide: the tests of this file run one at a time).
 */
function ctrlC(interrupt: AbortController): void {
  interrupt.abort();
  stopRunningGit('graceful');
}

const finishes = script({ call: 20_000 }, touch('wip.txt', 'work in progress\n'), done, success);

describe('Ctrl-C while a gate or a git hook runs', () => {
  it('during verification: stops the gate at once; the run ends interrupted (130) with the phase in progress, no verdict, its work committed as interrupted', async () => {
    const flag = flagFile();
    // No baseline run of the gate before the session: the first run of the gate is the verification's.
    const p = project([{ id: '1', title: 'Last phase', gates: [{ name: 'slow', command: `touch ${flag}; sleep 3417` }] }]);
    const interrupt = new AbortController();
    const running = p.run([finishes], { interrupt, config: { baseline_gates: false } });
    await waitFor('the gate to run sleep 3417', () => existsSync(flag) && livePids(/^sleep 3417$/).length > 0);
    ctrlC(interrupt);
    const out = await running;
    expect(out.exitCode).toBe(EXIT_CODES.interrupted.code);
    expect(out.exitCode).toBe(130);
    expect(livePids(/^sleep 3417$/)).toEqual([]);
    expect(ofType(out.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    expect(ofType(out.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'in_progress' }]);
    expect(ofType(out.events, 'gate_result')).toEqual([]); // a stopped gate has no verdict
    expect(ofType(out.events, 'commit').find((c) => c.purpose === 'interrupted')).toBeDefined();
    expect(p.committed()).toContain('wip.txt');
    // What `debussy status` says next, from the run's state and the next run's decision.
    const plan = (await parsePlan(path.join(p.dir, p.planPath))).plan;
    if (plan === undefined) throw new Error('the plan did not parse');
    const dry = await describeDryRun(p.dir, plan, { ...defaultConfig(), ...FAST });
    expect(describeNext({ state: out.state, status: out.state.status, planArg: p.planPath, upcoming: dry.phases })).toMatch(/resumes phase 1/);
  });

  it('while a pre-commit hook hangs: ends git and the hook at once; the run ends interrupted (130), the work stays in the tree, no index lock is left', async () => {
    const flag = flagFile();
    const p = project([{ id: '1', title: 'Hooked' }]);
    const hook = path.join(p.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, `#!/bin/sh\ntouch ${flag}; sleep 3427\n`);
    chmodSync(hook, 0o755);
    const interrupt = new AbortController();
    const running = p.run([finishes], { interrupt });
    await waitFor('the hook to run sleep 3427', () => existsSync(flag) && livePids(/^sleep 3427$/).length > 0);
    ctrlC(interrupt);
    const out = await running;
    expect(out.exitCode).toBe(EXIT_CODES.interrupted.code);
    expect(livePids(/^sleep 3427$/)).toEqual([]);
    expect(existsSync(path.join(p.dir, '.git', 'index.lock'))).toBe(false);
    expect(readFileSync(path.join(p.dir, 'wip.txt'), 'utf8')).toBe('work in progress\n');
    expect(ofType(out.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    expect(ofType(out.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'in_progress' }]);
    expect(JSON.stringify(ofType(out.events, 'commit_failed'))).toContain('git commit stopped by the user');
  });
});
