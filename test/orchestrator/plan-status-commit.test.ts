/**
 * update_plan_status, in process: the run writes each phase's status into the plan and commits it,
 * the last phase's too, so the tree is clean at the end and the next run does not refuse a dirty
 * tree. The whole orchestrator (runPlan, real git) with the in-process agent.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
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
