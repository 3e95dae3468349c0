/**
 * The run loop's decisions, table-tested through the whole orchestrator (runPlan: the lock, the
 * journal, runPhase, runSession, gates and commits in a temp git repository) with an agent that
 * runs in process (test/support/in-process-agent.ts) instead of the claude binary. What only the
 * real CLI can show (its stream, hooks, signals, processes) stays in test/e2e/.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type DebussyConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { runPlan } from '../../src/orchestrator/run-plan.js';
import { parsePlan } from '../../src/plan/index.js';
import type { JournalEvent, RunState } from '../../src/state/index.js';
import { journalPath, loadRun, readJournal } from '../../src/state/index.js';
import { inProcessAgent, type InProcessAgent, type ScriptStep, type SessionScript } from '../support/in-process-agent.js';
import { planFiles, type PhaseSpec } from '../support/plan-files.js';
import { git, tempGitRepo, type TempDir } from '../support/temp-git-repo.js';

let stateDir: string;
/** A committed repository with nothing in it but a .gitignore: each test copies it (a copy costs no git process). */
let template: TempDir;
const savedStateDir = process.env.DEBUSSY_STATE_DIR;
beforeAll(async () => {
  // debussy's journal key is made here, never in the real home.
  stateDir = mkdtempSync(path.join(tmpdir(), 'debussy-loop-state-'));
  process.env.DEBUSSY_STATE_DIR = stateDir;
  template = await tempGitRepo({ '.gitignore': '.debussy/\n' });
});
afterAll(async () => {
  if (savedStateDir === undefined) delete process.env.DEBUSSY_STATE_DIR;
  else process.env.DEBUSSY_STATE_DIR = savedStateDir;
  rmSync(stateDir, { recursive: true, force: true });
  await template.cleanup();
});

/** The template with the plan's files in it, committed by the test's own hand: the plan is the user's, never the run's work. */
/**
 * A project with the plan's files: a copy of the committed template with the plan committed by
 * the test's own hand (the plan is the user's, never the run's work) when the test looks at
 * commits; else a plain folder (auto_commit off, no git process at all), for the decisions alone.
 */
function projectWith(phases: PhaseSpec[], withGit: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'debussy-loop-'));
  if (withGit) cpSync(template.dir, dir, { recursive: true });
  for (const [file, content] of Object.entries(planFiles('Loop', phases))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  if (withGit) {
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['commit', '--quiet', '-m', 'the plan'], { cwd: dir });
  }
  return dir;
}

interface Outcome {
  exitCode: number;
  state: RunState;
  events: JournalEvent[];
  agent: InProcessAgent;
  commits: string[];
  /** Every file the run's commits hold. */
  committed: string[];
  notices: string[];
}

const FAST: Partial<DebussyConfig> = { backoff_base: 1, backoff_max: 5, stop_grace: 200, max_context_tokens: 0 };

async function run(
  scripts: SessionScript[],
  options: { phases?: PhaseSpec[]; config?: Partial<DebussyConfig>; window?: number; interrupt?: AbortController; git?: boolean } = {},
): Promise<Outcome> {
  const phases = options.phases ?? [{ id: '1', title: 'One', gates: [{ name: 'check', command: 'true' }] }];
  const withGit = options.git === true;
  const repo = { dir: projectWith(phases, withGit) };
  try {
    const parsed = await parsePlan(path.join(repo.dir, 'plans/e2e/MASTER_PLAN.md'));
    if (parsed.plan === undefined) throw new Error('the test plan did not parse');
    const agent = inProcessAgent(scripts, options.window === undefined ? {} : { window: options.window });
    const interrupt = options.interrupt ?? new AbortController();
    const notices: string[] = [];
    const result = await runPlan({
      root: repo.dir, plan: parsed.plan, config: { ...defaultConfig(), ...FAST, auto_commit: withGit, ...options.config },
      reporter: { runStarted() {}, journal() {}, agent() {}, notice: (_level, message) => notices.push(message), runFinished() {}, close() {} },
      interrupt: interrupt.signal, forceStop: new AbortController().signal,
      env: { ...process.env, DEBUSSY_STATE_DIR: stateDir }, resumeCommand: 'debussy run plans/e2e/MASTER_PLAN.md', agent,
    });
    const { events } = await readJournal(journalPath(repo.dir, result.runId));
    const state = (await loadRun(repo.dir, result.runId))?.state;
    if (state === undefined) throw new Error('no run state');
    const commits = withGit ? (await git(repo.dir, 'log', '--format=%s')).trim().split('\n').slice(0, -2) : [];
    const committed = withGit ? (await git(repo.dir, 'log', '--name-only', '--format=', 'HEAD~' + String(commits.length) + '..HEAD')).split('\n').filter((line) => line !== '') : [];
    return { exitCode: result.exitCode, state, events, agent, commits, committed, notices };
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

const script = (...steps: ScriptStep[]): SessionScript => () => steps;
const done: ScriptStep = { done: 'completed' };
const success: ScriptStep = { end: 'success' };
const touch = (file: string): ScriptStep => ({ tool: 'Write', input: { file_path: file }, run: (cwd) => writeFileSync(path.join(cwd, file), 'work\n') });
const sessionsOf = (events: readonly JournalEvent[]) => events.filter((e) => e.type === 'session_started').length;
const ofType = <T extends JournalEvent['type']>(events: readonly JournalEvent[], type: T) => events.filter((e): e is Extract<JournalEvent, { type: T }> => e.type === type);

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
