/**
 * Issue 16, budgets, in process: a run with max_cost 0.50 over sessions that cost $0.20 each stops
 * during the third session with its work committed, exit 9 and the message; the run again refuses
 * until the budget is raised, then completes; a session stopped before its result is priced by
 * debussy's estimate from its tokens, marked as such. The whole orchestrator (runPlan, real git)
 * with the in-process agent, whose calls report their usage as claude's stream does.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DebussyConfig } from '../../src/config/index.js';
import { describeError } from '../../src/errors/describe-error.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { inProcessAgent } from '../support/in-process-agent.js';
import { done, LoopProject, ofType, script, type ScriptStep, type SessionScript, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

// claude-haiku-4-5 costs $1 per million input tokens: each turn of 50,000 uncached tokens $0.05.
const TURN: ScriptStep = { call: 50_000, input: 50_000, output: 0 };
const HAIKU: Partial<DebussyConfig> = { model: 'claude-haiku-4-5' };
const write = (file: string): ScriptStep => touch(file, `${file}\n`);

/** Four $0.05 turns a phase (write its file, a second step, done, a closing text): $0.20 a session; a checkpoint session three. */
const phaseSessions: SessionScript = (launch) => {
  const id = launch.env.DEBUSSY_PHASE_ID ?? '?';
  return /checkpoint/i.test(launch.prompt)
    ? [TURN, write(`resumed-${id}.txt`), TURN, done, TURN, { end: 'success', costUsd: 0.15 }]
    : [TURN, write(`p${id}.txt`), TURN, write(`p${id}-b.txt`), TURN, done, TURN, { end: 'success', costUsd: 0.2 }];
};

describe.concurrent('max_cost', () => {
  it('stops during the third $0.20 session at $0.50 (work committed, exit 9), refuses to go on until raised, then completes', async () => {
    const project = LoopProject.create([{ id: '1', title: 'One' }, { id: '2', title: 'Two' }, { id: '3', title: 'Three' }], { git: true });
    try {
      const first = await project.run([phaseSessions], { config: { ...HAIKU, max_cost: 0.5 } });
      expect(first.exitCode).toBe(EXIT_CODES.budget.code);
      // Session 3's first turn brings the total to $0.45: one more like it would cross $0.50.
      expect(first.printed).toContain('run budget reached: spent $0.45 of max_cost $0.50 (the next turn, about $0.05, would cross it)');
      expect(first.printed).toContain(`debussy run ${project.planPath} --max-cost 1.45`);
      // The end's own resume line names the command that goes on, not the plain one that is refused.
      expect(first.printed).toContain(`To resume: debussy run ${project.planPath} --max-cost 1.45`);
      expect(first.printed).not.toMatch(/To resume: debussy run \S+\n/);

      const ended = ofType(first.events, 'session_ended');
      expect(ended.map((e) => e.phaseId)).toEqual(['1', '2', '3']);
      expect(ended[0]?.costUsd).toBeCloseTo(0.2, 6);
      expect(ended[0]?.costEstimated).toBeUndefined();
      expect(ended[1]?.costUsd).toBeCloseTo(0.2, 6);
      expect(ofType(first.events, 'budget_reached')).toMatchObject([{ phaseId: '3', scope: 'run', limitUsd: 0.5 }]);
      expect(ofType(first.events, 'budget_reached')[0]?.spentUsd).toBeCloseTo(0.45, 6);
      expect(ofType(first.events, 'stop_requested')).toMatchObject([{ phaseId: '3' }]);
      // Stopped before its result: debussy's estimate stands in, the same $0.05, marked.
      expect(ended[2]?.outcome).toBe('stopped');
      expect(ended[2]?.costUsd).toBeCloseTo(0.05, 6);
      expect(ended[2]?.costEstimated).toBe(true);
      expect(ofType(first.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: EXIT_CODES.budget.code }]);
      expect(ofType(first.events, 'phase_ended').at(-1)).toMatchObject({ phaseId: '3', status: 'in_progress' });
      // The stopped session's work (its first turn's write ran to its end) is committed; its next step never ran.
      expect(existsSync(path.join(project.dir, 'p3.txt'))).toBe(true);
      expect(existsSync(path.join(project.dir, 'p3-b.txt'))).toBe(false);
      expect(project.git('status', '--porcelain')).toBe('');
      expect(project.git('log', '-1', '--name-only', '--format=%s')).toContain('p3.txt');
      // The end table marks the estimate and shows the spend against the budget.
      expect(first.printed).toMatch(/total .*\$0\.45/);
      expect(first.printed).toContain('budget: ~$0.45 of max_cost $0.50');

      // Again without raising it: refused at once, nothing run, the same exit code and how to raise it.
      const agent = inProcessAgent([phaseSessions]);
      const refused = describeError(await project.run(agent, { config: { ...HAIKU, max_cost: 0.5 } }).then(() => undefined, (e: unknown) => e));
      expect(refused.code).toBe(EXIT_CODES.budget.code);
      expect(refused.text).toContain('stopped at its budget');
      expect(refused.text).toContain('--max-cost 1.45');
      expect(agent.launches).toEqual([]);

      // Raised: phase 3 resumes from its checkpoint and the run completes; the earlier spend counts.
      const raised = await project.run([phaseSessions], { config: { ...HAIKU, max_cost: 1.5 } });
      expect(raised.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(raised.events, 'run_started')[0]?.priorCostUsd).toBeCloseTo(0.45, 6);
      expect(ofType(raised.events, 'phase_ended')).toContainEqual(expect.objectContaining({ phaseId: '3', status: 'completed' }));
      expect(existsSync(path.join(project.dir, 'resumed-3.txt'))).toBe(true);
      expect(raised.printed).toContain('budget: ~$0.60 of max_cost $1.50 (runs this one continued included)');
    } finally {
      project.cleanup();
    }
  });

  it("a session that ends before claude's result: its cost is estimated from its tokens, marked in the journal, the end table and the run's state", async () => {
    const project = LoopProject.create([{ id: '1', title: 'Killed' }], { git: true });
    try {
      const out = await project.run([script(TURN, write('a.txt'), TURN, { crash: 137 }), script({ call: 20_000 }, done, success)], { config: HAIKU });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      const ended = ofType(out.events, 'session_ended');
      // Two calls of 50,000 input tokens on claude-haiku-4-5 at $1 per million.
      expect(ended[0]).toMatchObject({ costEstimated: true, inputTokens: 100_000 });
      expect(ended[0]?.costUsd).toBeCloseTo(0.1, 6);
      expect(ended[1]?.costEstimated).toBeUndefined();
      expect(out.printed).toMatch(/total .*~\$0\.\d\d/);
      expect(out.printed).toContain("~ includes debussy's estimate");
      // What `debussy status --json` shows as the run.
      expect(out.state.phases['1']?.estimatedCostUsd).toBeCloseTo(0.1, 6);
    } finally {
      project.cleanup();
    }
  });

  it('a malformed prices entry: one line naming it, exit 2, nothing run', async () => {
    const project = LoopProject.create([{ id: '1', title: 'One' }]);
    try {
      const agent = inProcessAgent([script(done, success)]);
      const error = describeError(await project.run(agent, { config: { prices: { 'my-model': 'cheap' } } }).then(() => undefined, (e: unknown) => e));
      expect(error.code).toBe(EXIT_CODES.usage.code);
      expect(error.text).toContain('prices.my-model: "cheap" is not four prices');
      expect(error.text).not.toMatch(/internal error|\n\s+at /);
      expect(agent.launches).toEqual([]);
      expect(existsSync(path.join(project.dir, '.debussy/runs'))).toBe(false);
    } finally {
      project.cleanup();
    }
  });
});
