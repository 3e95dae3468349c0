/**
 * The run loop's decisions, table-tested through the whole orchestrator (runPlan: the lock, the
 * journal, runPhase, runSession, gates and commits in a temp git repository) with an agent that
 * runs in process (test/support/in-process-agent.ts) instead of the claude binary. What only the
 * real CLI can show (its stream, hooks, signals, processes) stays in test/e2e/.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DebussyConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import type { InProcessAgent } from '../support/in-process-agent.js';
import { done, LoopProject, type LoopOutcome, ofType, script, type ScriptStep, type SessionScript, sessionsOf, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import type { PhaseSpec } from '../support/plan-files.js';

useLoopStateDir();

interface Outcome extends LoopOutcome {
  agent: InProcessAgent;
  commits: string[];
  /** Every file the run's commits hold. */
  committed: string[];
}

/** One run of a fresh project (a plain folder unless `git`), then the project removed. */
async function run(
  scripts: SessionScript[],
  options: { phases?: PhaseSpec[]; config?: Partial<DebussyConfig>; window?: number; interrupt?: AbortController; git?: boolean } = {},
): Promise<Outcome> {
  const project = LoopProject.create(options.phases ?? [{ id: '1', title: 'One', gates: [{ name: 'check', command: 'true' }] }], { git: options.git === true });
  try {
    const out = await project.run(scripts, {
      ...(options.config === undefined ? {} : { config: options.config }),
      ...(options.window === undefined ? {} : { window: options.window }),
      ...(options.interrupt === undefined ? {} : { interrupt: options.interrupt }),
    });
    return { ...out, commits: project.commits(), committed: project.committed() };
  } finally {
    project.cleanup();
  }
}

describe.concurrent('the run loop, with an in-process agent', () => {
  it('completes a phase whose session signals done and whose gates pass, in one commit of its work', async () => {
    const out = await run([script({ call: 20_000 }, touch('a.txt'), done, success)], { git: true });
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(out.state.phases['1']?.status).toBe('completed');
    expect(sessionsOf(out.events)).toBe(1);
    expect(out.commits).toHaveLength(1);
  });

  it('restarts at the context threshold: the session is stopped after its running step, its work committed, and a fresh session starts from a checkpoint', async () => {
    const out = await run([
      script({ call: 100_000 }, touch('first.txt'), { call: 170_000 }, touch('second.txt'), { call: 175_000 }, success),
      script({ call: 20_000 }, touch('third.txt'), done, success),
    ], { config: { context_threshold: 80 }, git: true });
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(out.events, 'context_crossed')).toHaveLength(1);
    expect(ofType(out.events, 'restart')).toHaveLength(1);
    // The stop waited for the running tool (second.txt), and nothing after it ran.
    expect(out.committed).toEqual(expect.arrayContaining(['first.txt', 'second.txt', 'third.txt']));
    expect(out.agent.launches[1]?.prompt).toMatch(/checkpoint/i);
    expect(out.agent.launches[1]?.prompt).toContain('first.txt');
    expect(out.commits.some((subject) => /checkpoint/i.test(subject))).toBe(true);
  });

  it('fails the phase once max_restarts are spent, and says so', async () => {
    const out = await run([script({ call: 180_000 }, { hang: true })], { config: { max_restarts: 1 } });
    expect(out.exitCode).toBe(EXIT_CODES.failed.code);
    expect(sessionsOf(out.events)).toBe(2);
    expect(out.state.phases['1']?.status).toBe('failed');
    expect(ofType(out.events, 'restart')).toHaveLength(1);
    expect(ofType(out.events, 'phase_ended')[0]?.reason).toContain('after 1 restart(s) (max_restarts 1)');
    expect(out.notices.join('\n')).toContain('Split the phase into smaller phases, or raise --max-restarts or --context-threshold.');
  });

  it('one-shot mode (max_restarts 0) reports a crossing and lets the session run on', async () => {
    const out = await run([script({ call: 180_000 }, touch('a.txt'), done, success)], { config: { max_restarts: 0 } });
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(out.events, 'context_crossed')[0]?.stopping).toBe(false);
    expect(ofType(out.events, 'stop_requested')).toHaveLength(0);
    expect(sessionsOf(out.events)).toBe(1);
  });

  it("never takes the agent's word: a failing gate gets a remediation session that names it, then the phase completes", async () => {
    const phases = [{ id: '1', title: 'One', gates: [{ name: 'made', command: 'test -f made.txt' }] }];
    const out = await run([script({ call: 20_000 }, done, success), script({ call: 20_000 }, touch('made.txt'), done, success)], { phases });
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(out.events, 'attempt_started').map((e) => e.kind)).toEqual(['initial', 'remediation']);
    expect(out.agent.launches[1]?.prompt).toContain('test -f made.txt');
  });

  it('a gate that keeps failing fails the phase after max_retries remediation sessions, naming the gate', async () => {
    const phases = [{ id: '1', title: 'One', gates: [{ name: 'fixed', command: 'test -f fixed.txt' }] }];
    const out = await run([script({ call: 20_000 }, done, success), script({ call: 20_000 }, done, success)], { phases, config: { max_retries: 1 } });
    expect(out.exitCode).toBe(EXIT_CODES.failed.code);
    expect(sessionsOf(out.events)).toBe(2);
    expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'failed' }]);
    expect(ofType(out.events, 'phase_ended')[0]?.reason).toContain('gate(s) fixed still failing after 1 remediation session(s) (max_retries 1)');
  });

  it('a failed phase skips its dependents; the independent phases still run; the run names what it skipped', async () => {
    const phases = [{ id: '1', title: 'Base' }, { id: '2', title: 'Needs base', dependsOn: ['1'] }, { id: '3', title: 'Independent' }];
    const out = await run([script({ call: 20_000 }, { done: 'failed', reason: 'cannot build' }, success), script({ call: 20_000 }, done, success)], { phases, config: { max_retries: 0 } });
    expect(out.exitCode).toBe(EXIT_CODES.failed.code);
    expect(ofType(out.events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'failed'], ['2', 'skipped'], ['3', 'completed']]);
    expect(ofType(out.events, 'phase_ended')[1]?.reason).toBe('dependency 1 did not complete');
    expect(out.state.reason).toContain('2 skipped (dependency 1 did not complete)');
    expect(out.agent.launches.map((launch) => launch.prompt.match(/phase (\d)/i)?.[1])).toEqual(['1', '3']);
  });

  it('a session that crashes is retried in a fresh session; past max_retries the phase fails', async () => {
    const recovered = await run([script({ call: 20_000 }, touch('a.txt'), { crash: 1 }), script({ call: 20_000 }, done, success)]);
    expect(recovered.exitCode).toBe(EXIT_CODES.success.code);
    expect(sessionsOf(recovered.events)).toBe(2);
    const given = await run([script({ call: 20_000 }, { crash: 1 })], { config: { max_retries: 1 } });
    expect(given.exitCode).not.toBe(EXIT_CODES.success.code);
    expect(given.state.phases['1']?.status).not.toBe('completed');
  });

  it('a session that ends without signalling is continued once with a reminder, in the same session', async () => {
    const out = await run([script({ call: 20_000 }, touch('a.txt'), success), script({ call: 25_000 }, done, success)]);
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(out.agent.launches[1]?.resumeSessionId).toBe('in-process-1');
    expect(out.agent.launches[1]?.prompt).toContain('debussy done --phase 1');
  });

  it('a done for another phase is answered and records nothing', async () => {
    const phases = [{ id: '1', title: 'One' }, { id: '2', title: 'Two', dependsOn: ['1'] }];
    const out = await run([script({ call: 20_000 }, { done: 'completed', phase: '2' }, done, success), script({ call: 20_000 }, done, success)], { phases });
    expect(out.agent.signalAnswers[0]?.code).not.toBe(0);
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(out.events, 'signal').filter((e) => e.phaseId === '2')).toHaveLength(1);
  });

  it('blocked: the run stops with the reason, exit blocked', async () => {
    const out = await run([script({ call: 20_000 }, { done: 'blocked', reason: 'needs an API key' }, success)]);
    expect(out.exitCode).toBe(EXIT_CODES.blocked.code);
    expect(out.state.reason ?? '').toContain('needs an API key');
  });

  it('an interrupt stops the session, commits its work as interrupted, and ends the run (exit interrupted)', async () => {
    const interrupt = new AbortController();
    const ctrlC: ScriptStep = { tool: 'Bash', run: () => interrupt.abort() };
    const out = await run([script({ call: 20_000 }, touch('a.txt'), ctrlC, { hang: true })], { interrupt, git: true });
    expect(out.exitCode).toBe(EXIT_CODES.interrupted.code);
    expect(out.commits.some((subject) => /interrupted/i.test(subject))).toBe(true);
    expect(out.state.phases['1']?.status).toBe('in_progress');
  });

  it('a budget reached stops the session, commits, and pauses the run (exit budget)', async () => {
    const out = await run([script({ call: 20_000 }, touch('a.txt'), { call: 30_000 }, { call: 40_000 }, { hang: true })], { config: { max_cost: 0.01, model: 'claude-sonnet-4-5' } });
    expect(out.exitCode).toBe(EXIT_CODES.budget.code);
    expect(ofType(out.events, 'budget_reached')).toHaveLength(1);
  });

  it('a usage limit that resets beyond max_wait pauses the run with its work committed (exit usage limit)', async () => {
    const out = await run([script({ call: 20_000 }, touch('a.txt'), { usageLimit: Math.floor(Date.now() / 1000) + 6 * 3600 })], { config: { max_wait: 60_000 }, git: true });
    expect(out.exitCode).toBe(EXIT_CODES.usageLimit.code);
    expect(out.commits).toHaveLength(1);
  });

  it("a later phase that breaks an earlier phase's gate fails the run at the end (regression_gates: end)", async () => {
    const phases = [
      { id: '1', title: 'One', gates: [{ name: 'kept', command: 'test -f kept.txt' }] },
      { id: '2', title: 'Two', dependsOn: ['1'] },
    ];
    const remove: ScriptStep = { tool: 'Bash', run: (cwd) => rmSync(path.join(cwd, 'kept.txt')) };
    const out = await run([script({ call: 20_000 }, touch('kept.txt'), done, success), script({ call: 20_000 }, remove, done, success)], { phases, config: { regression_gates: 'end' } });
    expect(out.exitCode).toBe(EXIT_CODES.failed.code);
    expect(out.state.reason ?? '').toMatch(/regress|kept/i);
  });
});
