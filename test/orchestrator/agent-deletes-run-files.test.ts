/**
 * An agent that deletes what the run needs while it runs, in process: the agent's debussy and its
 * inbox (.git/debussy) are put back, or the run stops (exit 8) with the work committed; debussy's
 * config and plan are written back as the run read them and their deletion is never committed. The
 * whole orchestrator (runPlan, real git) with the in-process agent, whose `debussy done` is the
 * run's real shim (test/support/in-process-run.ts).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, ofType, script, type ScriptStep, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

/** A Bash tool call that runs `what` in the work tree. */
const bash = (what: (cwd: string) => void): ScriptStep => ({ tool: 'Bash', run: what });
const finish = script({ call: 20_000 }, done, success);

describe.concurrent("the agent removes debussy's live directory (.git/debussy)", () => {
  it("the lock, the agent's debussy and its inbox are put back: a later debussy done reaches the run", async () => {
    const project = LoopProject.create([{ id: '1', title: 'Removes .git/debussy' }], { git: true });
    try {
      const out = await project.run([script(
        { call: 20_000 }, touch('work.txt'), bash((cwd) => rmSync(path.join(cwd, '.git/debussy'), { recursive: true })),
        { tool: 'Bash', input: { command: 'debussy done --phase 1' } }, done, success,
      )], { config: { max_retries: 0 } });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      // Not 127 (command not found): the shim was back for the agent's done.
      expect(out.agent.signalAnswers.map((answer) => answer.code)).toEqual([0]);
      expect(ofType(out.events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
      expect(ofType(out.events, 'notice').map((n) => n.message).join('\n')).toMatch(/agent's debussy .*was deleted during the run; it was written back/);
    } finally {
      project.cleanup();
    }
  });

  it('when they cannot be put back (a file where the directory was), the run stops with exit 8, its work committed, and resumes', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Blocks .git/debussy' }], { git: true });
    const block = bash((cwd) => {
      rmSync(path.join(cwd, '.git/debussy'), { recursive: true, force: true });
      writeFileSync(path.join(cwd, '.git/debussy'), 'blocked\n');
    });
    try {
      const first = await project.run([script({ call: 20_000 }, touch('work.txt'), block, { hang: true })]);
      expect(first.exitCode).toBe(EXIT_CODES.stateLost.code);
      expect(ofType(first.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: EXIT_CODES.stateLost.code }]);
      expect(project.git('log', '--name-only', '--format=', '-1')).toContain('work.txt');

      rmSync(path.join(project.dir, '.git/debussy'));
      const resumed = await project.run([finish]);
      expect(resumed.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(resumed.events, 'attempt_started')[0]?.kind).toBe('resume');
    } finally {
      project.cleanup();
    }
  });
});

describe.concurrent("the agent deletes debussy's inputs", () => {
  const CONFIG = '.debussy/config.yaml';
  it.each([
    ['.debussy', 'its config'],
    ['plans', 'the plan it runs'],
  ])('rm -rf %s (%s): never committed; put back as the run read them, the run stops and says so, and resumes', async (deleted) => {
    // As `debussy init` leaves a project: the config committed, the run's state ignored.
    const project = LoopProject.create([{ id: '1', title: 'Deletes inputs' }], {
      git: true, files: { '.gitignore': '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n', [CONFIG]: 'model: claude-sonnet-4-5\n' },
    });
    const read = (file: string) => readFileSync(path.join(project.dir, file), 'utf8');
    const config = read(CONFIG);
    const plan = read(project.planPath);
    try {
      const remove = bash((cwd) => rmSync(path.join(cwd, deleted), { recursive: true }));
      const first = await project.run([script({ call: 20_000 }, touch('work.txt'), remove, { hang: true })], { configFile: CONFIG });
      expect(first.exitCode).toBe(EXIT_CODES.stateLost.code);
      // What the run said, should this ever fail (1 full suite run in many did: nothing committed).
      expect(project.committed(), first.printed).toContain('work.txt');
      expect(project.git('log', '--name-status', '--format=', `HEAD~${project.commits().length}..HEAD`)).not.toMatch(/^D\t/m);
      expect(first.printed).toMatch(/the agent deleted debussy's config or plan \(.*\); debussy wrote them back as the run read them, and their deletion is not committed/);
      expect(read(CONFIG)).toBe(config);
      expect(read(project.planPath)).toBe(plan);
      expect(project.git('status', '--porcelain', '--untracked-files=no')).toBe('');

      const resumed = await project.run([finish], { configFile: CONFIG });
      expect(resumed.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(resumed.events, 'attempt_started')[0]?.kind).toBe('resume');
    } finally {
      project.cleanup();
    }
  });
});
