/**
 * update_plan_status, in process: the run writes each phase's status into the plan and commits it,
 * the last phase's too, so the tree is clean at the end and the next run does not refuse a dirty
 * tree. The whole orchestrator (runPlan, real git) with the in-process agent.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import type { PhaseContext } from '../../src/orchestrator/phase-context.js';
import { stagePlanStatusInMerge } from '../../src/orchestrator/plan-status.js';
import { planFiles } from '../support/plan-files.js';
import { git, tempGitRepo } from '../support/temp-git-repo.js';
import { done, LoopProject, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

describe('update_plan_status', () => {
  it("commits the last phase's status, so the next run does not refuse a dirty tree", async () => {
    const project = LoopProject.create([{ id: '1', title: 'Status kept' }], { git: true });
    try {
      const config = { update_plan_status: true };
      const out = await project.run([script({ call: 20_000 }, touch('a.txt', 'a\n'), done, success)], { config });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(project.git('status', '--porcelain', '--untracked-files=no')).toBe('');
      expect(project.git('show', `HEAD:${project.planPath}`)).toMatch(/\| 1 \| .* \| Complete/);
      const again = await project.run([script({ call: 20_000 }, done, success)], { config });
      expect(again.exitCode).toBe(EXIT_CODES.success.code);
      expect(again.agent.launches).toEqual([]);
    } finally {
      project.cleanup();
    }
  });
});

describe('stagePlanStatusInMerge (--parallel: the Status cell rides in the merge commit)', () => {
  async function merging() {
    const repo = await tempGitRepo(planFiles('Merge Plan', [{ id: '1', title: 'One' }, { id: '2', title: 'Two' }]));
    onTestFinished(repo.cleanup);
    await git(repo.dir, 'switch', '-q', '-c', 'phase');
    writeFileSync(path.join(repo.dir, 'work.txt'), 'work\n');
    await git(repo.dir, 'add', 'work.txt');
    await git(repo.dir, 'commit', '-q', '-m', 'work');
    await git(repo.dir, 'switch', '-q', 'main');
    await git(repo.dir, 'merge', '--no-ff', '--no-commit', 'phase');
    const planPath = path.join(repo.dir, 'plans/e2e/MASTER_PLAN.md');
    const ctx = (updatePlanStatus: boolean) => ({ root: repo.dir, useGit: true, config: { update_plan_status: updatePlanStatus }, plan: { path: planPath } }) as unknown as PhaseContext;
    return { dir: repo.dir, planPath, ctx };
  }

  it('writes the cell and stages it into the merge', async () => {
    const { dir, ctx } = await merging();
    expect(await stagePlanStatusInMerge(ctx(true), '1', 'completed')).toBe(true);
    expect(await git(dir, 'show', ':./plans/e2e/MASTER_PLAN.md')).toMatch(/\| 1 \| .* \| Complete/);
    expect((await git(dir, 'diff', '--name-only')).trim()).toBe('');
  });

  it.each<[string, boolean, string | undefined]>([
    ['update_plan_status off', false, undefined],
    ['the plan has another uncommitted change', true, '\nA line of the user\'s.\n'],
  ])('%s: leaves the plan alone', async (_name, on, edit) => {
    const { dir, planPath, ctx } = await merging();
    if (edit !== undefined) appendFileSync(planPath, edit);
    const before = readFileSync(planPath, 'utf8');
    expect(await stagePlanStatusInMerge(ctx(on), '1', 'completed')).toBe(false);
    expect(readFileSync(planPath, 'utf8')).toBe(before);
    expect(await git(dir, 'show', ':./plans/e2e/MASTER_PLAN.md')).not.toMatch(/Complete/);
  });
});
