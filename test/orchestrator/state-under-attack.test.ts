/**
 * Issue 12, "state under attack", in process: debussy's own state deleted or made unwritable by the
 * agent during a run (or before it). The run notices, stops the session the way a Ctrl-C does,
 * writes its journal back (or saves it outside the tree), keeps its lock, and the next run resumes.
 * The whole orchestrator (runPlan, real git) with the in-process agent, whose `debussy done` is the
 * run's real shim (test/support/in-process-run.ts). The CLI's own views (status, history, a torn
 * journal) and a real stream stay in test/e2e/state-attack.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDryRun } from '../../src/cli/dry-run.js';
import { describeNext } from '../../src/cli/status-next.js';
import { defaultConfig } from '../../src/config/index.js';
import { describeError } from '../../src/errors/describe-error.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { parsePlan } from '../../src/plan/index.js';
import { effectiveRunStatus, latestRun, lockPath, readRunLock } from '../../src/state/index.js';
import { inProcessAgent } from '../support/in-process-agent.js';
import { done, LoopProject, ofType, script, type ScriptStep, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

const bash = (what: (cwd: string) => void): ScriptStep => ({ tool: 'Bash', run: what });
const finish = script({ call: 20_000 }, done, success);

/** The "Next" line of `debussy status` for the project (cli/commands/status.ts, from its pure parts). */
async function statusNext(project: LoopProject): Promise<string> {
  const last = await latestRun(project.dir);
  if (last?.state === undefined) throw new Error('no run');
  const { plan } = await parsePlan(path.join(project.dir, project.planPath));
  if (plan === undefined) throw new Error('the plan does not parse');
  const upcoming = (await describeDryRun(project.dir, plan, { ...defaultConfig(), auto_commit: project.withGit })).phases.map((p) => ({ id: p.id, action: p.action }));
  return describeNext({ state: last.state, status: effectiveRunStatus(last.state, await readRunLock(project.dir)), planArg: project.planPath, upcoming });
}

/** What `debussy run` prints for an error that ends it, and its exit code. */
function failure(error: unknown): { text: string; code: number } {
  return describeError(error);
}

describe.concurrent('the agent deletes .debussy/ (git clean -fdx) during a session', () => {
  it('debussy notices, stops the session, restores the journal, keeps its lock, and the next run resumes', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Cleaned' }], { git: true });
    let another: { text: string; code: number } | undefined;
    try {
      const first = await project.run([script(
        { call: 20_000 }, touch('work.txt', 'the agent wrote this\n'),
        bash((cwd) => execFileSync('git', ['clean', '-fdx', '-e', 'work.txt'], { cwd })),
        // Another `debussy run` while this one works, its journal gone: refused, the lock is still held.
        { until: () => project.run([finish]).then(() => undefined, (error: unknown) => void (another = failure(error))) },
        { hang: true },
      )]);
      expect(another?.code).toBe(EXIT_CODES.locked.code);
      expect(another?.text).toContain('another debussy run');
      expect(first.exitCode).toBe(EXIT_CODES.stateLost.code);
      expect(first.printed).toMatch(/debussy's state .*was deleted/);
      expect(existsSync(path.join(project.dir, '.debussy/runs'))).toBe(true);
      // The project journal (the plan last used, phase marks) went with the clean too, and is back.
      expect(readFileSync(path.join(project.dir, '.debussy/project.ndjson'), 'utf8')).toContain('"plan_used"');
      expect(ofType(first.events, 'run_started')).toHaveLength(1);
      expect(ofType(first.events, 'notice').some((n) => /was deleted/.test(n.message))).toBe(true);
      expect(ofType(first.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: EXIT_CODES.stateLost.code }]);
      const commit = ofType(first.events, 'commit').at(-1);
      expect(project.git('show', '--name-only', '--format=', commit?.sha ?? 'none')).toContain('work.txt');

      expect(await statusNext(project)).toContain('resumes phase 1 from its checkpoint');
      const resumed = await project.run([finish]);
      expect(resumed.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(resumed.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
      // Each run removes its shim and inbox from the git directory when it ends.
      const live = path.join(project.dir, '.git/debussy/runs');
      expect(existsSync(live) ? readdirSync(live) : []).toEqual([]);
    } finally {
      project.cleanup();
    }
  });

  it("the agent's debussy done after the clean reaches the run instead of failing with 127", async () => {
    const project = LoopProject.create([{ id: '1', title: 'Cleaned then done' }], { git: true });
    try {
      const out = await project.run([
        script({ call: 20_000 }, bash((cwd) => rmSync(path.join(cwd, '.debussy/runs'), { recursive: true })), done, success),
        finish,
      ]);
      expect(out.agent.signalAnswers[0]?.code).toBe(0);
      // The stop lets the running command finish: the agent's done, run after the clean, was recorded for its attempt.
      const attempt = ofType(out.events, 'attempt_started')[0]?.attemptId;
      expect(ofType(out.events, 'signal').filter((s) => s.attemptId === attempt && s.status === 'completed')).toHaveLength(1);
      expect(ofType(out.events, 'run_started')).toHaveLength(1);
      // No phase was marked done outside the run's own journal.
      const marks = path.join(project.dir, '.debussy/project.ndjson');
      expect(existsSync(marks) ? readFileSync(marks, 'utf8') : '').not.toContain('phase_marked');
    } finally {
      project.cleanup();
    }
  });
});

describe.concurrent('outside git, the agent deletes .debussy/', () => {
  it('its debussy done still reaches the run (shim and lock live in a per-user run-time directory), and the journal is written back', async () => {
    const project = LoopProject.create([{ id: '1', title: 'No git' }]);
    try {
      const out = await project.run([script({ call: 20_000 }, bash((cwd) => rmSync(path.join(cwd, '.debussy'), { recursive: true })), done, success)]);
      expect(out.exitCode).toBe(EXIT_CODES.stateLost.code);
      expect(out.agent.signalAnswers[0]?.code).toBe(0);
      expect(ofType(out.events, 'run_started')).toHaveLength(1);
      expect(ofType(out.events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
      expect(ofType(out.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: EXIT_CODES.stateLost.code }]);
    } finally {
      project.cleanup();
    }
  });
});

describe.concurrent('a .debussy that cannot be written', () => {
  it('before the run: one clear line naming the path and the fix; nothing run; no lock left behind', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Unwritable' }], { git: true });
    try {
      // Root ignores permissions: make .debussy/runs a dangling symlink into a file.
      writeFileSync(path.join(project.dir, 'not-a-dir'), 'x');
      mkdirSync(path.join(project.dir, '.debussy'), { recursive: true });
      symlinkSync(path.join(project.dir, 'not-a-dir', 'runs'), path.join(project.dir, '.debussy/runs'));
      const agent = inProcessAgent([finish]);
      const error = failure(await project.run(agent).then(() => undefined, (e: unknown) => e));
      expect(error.code).toBe(EXIT_CODES.failed.code);
      expect(error.text).toContain('.debussy/runs');
      expect(error.text).toMatch(/cannot write/);
      expect(error.text).not.toContain('internal error');
      expect(agent.launches).toEqual([]);
      expect(existsSync(lockPath(project.dir))).toBe(false);
      const again = failure(await project.run([finish]).then(() => undefined, (e: unknown) => e));
      expect(again.text).not.toContain('another debussy run');
    } finally {
      project.cleanup();
    }
  });

  it('during the run: the session is stopped, a clear error names the path, the lock is released; the journal saved outside the tree resumes once put back', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Made unwritable' }], { git: true });
    const runs = path.join(project.dir, '.debussy/runs');
    try {
      const block = bash(() => {
        rmSync(runs, { recursive: true, force: true });
        writeFileSync(runs, 'x\n');
      });
      const error = failure(await project.run([script({ call: 20_000 }, touch('work.txt', 'kept\n'), block, { hang: true }, done, success)]).then(() => undefined, (e: unknown) => e));
      expect(error.code).toBe(EXIT_CODES.stateLost.code);
      expect(error.text).toContain(runs);
      expect(error.text).not.toContain('internal error');
      expect(existsSync(lockPath(project.dir))).toBe(false);
      // Nothing recorded is lost: the journal was saved outside the tree, and resumes once put back.
      const rescued = /saved to (\S+): put it back at (\S+)/.exec(error.text);
      expect(rescued).not.toBeNull();
      rmSync(runs, { force: true });
      const back = path.join(project.dir, rescued?.[2] ?? '');
      mkdirSync(path.dirname(back), { recursive: true });
      writeFileSync(back, readFileSync(rescued?.[1] ?? ''));
      expect(await statusNext(project)).toContain('resumes phase 1 from its checkpoint');
      expect(readdirSync(path.join(project.dir, '.git'))).not.toContain('index.lock');
    } finally {
      project.cleanup();
    }
  });
});
