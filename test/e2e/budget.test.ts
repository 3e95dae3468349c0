/**
 * Issue 16 acceptance, through the real claude CLI against the scripted server: a run with
 * --max-cost 0.50 over sessions that cost $0.20 each stops during the third session with its work
 * committed, exit 9 and the message; `debussy run` again refuses until the budget is raised, then
 * completes; the stopped session's cost is debussy's estimate, marked as such.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { assistantTurns, bash, done, scriptBySession, sessionKind, write } from './session-script.js';

// claude-haiku-4-5 costs $1 per million input tokens (claude's own table): each turn $0.05.
const TURN_USAGE = { usage: { input_tokens: 50_000, output_tokens: 0 } };

function phaseOf(req: RecordedRequest): string {
  return /executing phase (\S+)/.exec(firstUserText(req))?.[1] ?? '?';
}

/** Four $0.05 turns a phase: write its file, a second step, `debussy done`, a closing text ($0.20 a session). */
function script(req: RecordedRequest): ScriptedTurn {
  const id = phaseOf(req);
  const turns: ScriptedTurn[] = sessionKind(req) === 'checkpoint'
    ? [bash(`echo resumed > resumed-${id}.txt`, TURN_USAGE), bash(`debussy done --phase ${id}`, TURN_USAGE), { ...done(), ...TURN_USAGE }]
    : [write(`p${id}.txt`, `phase ${id}\n`, TURN_USAGE), bash(`echo step two > p${id}-b.txt`, { ...TURN_USAGE, latencyMs: 1500 }), bash(`debussy done --phase ${id}`, TURN_USAGE), { ...done(), ...TURN_USAGE }];
  return turns[assistantTurns(req)] ?? done();
}

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('max_cost', () => {
  it('stops during the third $0.20 session at $0.50 (work committed, exit 9), refuses to go on until raised, then completes', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'One' }, { id: '2', title: 'Two' }, { id: '3', title: 'Three' }],
      script,
      usage: 'scripted',
      config: { model: 'claude-haiku-4-5' },
    });
    const first = await project.run(['run', project.planArg, '--max-cost', '0.50']);
    const out = first.stdout + first.stderr;
    expect(first.code, out).toBe(9);
    // Session 3's first turn brings the total to $0.45: one more like it would cross $0.50.
    expect(out).toContain('run budget reached: spent $0.45 of max_cost $0.50 (the next turn, about $0.05, would cross it)');
    expect(out).toContain(`debussy run ${project.planArg} --max-cost 1.45`);
    // The end's own resume line names the command that goes on, not the plain one that is refused.
    expect(out).toContain(`To resume: debussy run ${project.planArg} --max-cost 1.45`);
    expect(out).not.toMatch(/To resume: debussy run \S+\n/);

    const events = await project.journal();
    const ended = eventsOf(events, 'session_ended');
    expect(ended.map((e) => e.phaseId)).toEqual(['1', '2', '3']);
    expect(ended[0]?.costUsd).toBeCloseTo(0.2, 6);
    expect(ended[0]?.costEstimated).toBeUndefined();
    expect(ended[1]?.costUsd).toBeCloseTo(0.2, 6);
    expect(eventsOf(events, 'budget_reached')).toMatchObject([{ phaseId: '3', scope: 'run', limitUsd: 0.5 }]);
    expect(eventsOf(events, 'budget_reached')[0]?.spentUsd).toBeCloseTo(0.45, 6);
    expect(eventsOf(events, 'stop_requested')).toMatchObject([{ phaseId: '3' }]);
    // claude 2.1.197 usually answers the SIGINT of a graceful stop with a result (aborted_streaming)
    // and its own figure; when it does not, debussy's estimate stands in, the same $0.05, marked.
    expect(ended[2]?.outcome).toBe('stopped');
    expect(ended[2]?.costUsd).toBeCloseTo(0.05, 6);
    const mark = ended[2]?.costEstimated === true ? '~' : '';
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 9 }]);
    expect(eventsOf(events, 'phase_ended').at(-1)).toMatchObject({ phaseId: '3', status: 'in_progress' });
    // The stopped session's work (its first turn's Write ran to its end) is committed; its next step never ran.
    expect(existsSync(path.join(project.dir, 'p3.txt'))).toBe(true);
    expect(existsSync(path.join(project.dir, 'p3-b.txt'))).toBe(false);
    expect(await project.git('status', '--porcelain')).toBe('');
    expect(await project.git('log', '-1', '--name-only', '--format=%s')).toContain('p3.txt');
    // The end table marks the estimate and shows the spend against the budget.
    expect(first.stdout).toMatch(/total .*\$0\.45/);
    expect(first.stdout).toContain(`budget: ${mark}$0.45 of max_cost $0.50`);

    // Again without raising it: refused at once, nothing run, the same exit code and how to raise it.
    const mainBefore = project.api.mainRequests().length;
    const refused = await project.run(['run', project.planArg, '--max-cost', '0.50']);
    expect(refused.code, refused.stdout + refused.stderr).toBe(9);
    expect(refused.stderr).toContain('stopped at its budget');
    expect(refused.stderr).toContain('--max-cost 1.45');
    expect(project.api.mainRequests().length).toBe(mainBefore);

    // Raised: phase 3 resumes from its checkpoint and the run completes; the earlier spend counts.
    const raised = await project.run(['run', project.planArg, '--max-cost', '1.50']);
    expect(raised.code, raised.stdout + raised.stderr).toBe(0);
    const resumed = await project.journal();
    expect(eventsOf(resumed, 'run_started')[0]?.priorCostUsd).toBeCloseTo(0.45, 6);
    expect(eventsOf(resumed, 'phase_ended')).toContainEqual(expect.objectContaining({ phaseId: '3', status: 'completed' }));
    expect(existsSync(path.join(project.dir, 'resumed-3.txt'))).toBe(true);
    expect(raised.stdout).toContain(`budget: ${mark}$0.60 of max_cost $1.50 (runs this one continued included)`);
  }, 180_000);

  it("a session killed before claude's result: its cost is estimated from its tokens, marked in the journal and the end table", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Killed' }],
      script: scriptBySession({ fresh: [write('a.txt', 'a\n', TURN_USAGE), bash('(sleep 27)', TURN_USAGE)], checkpoint: [bash('debussy done --phase 1'), done()] }),
      usage: 'scripted',
      config: { model: 'claude-haiku-4-5' },
    });
    const run = project.start(['run', project.planArg]);
    await waitFor('the agent to run sleep 27', () => livePids(/^sleep 27$/).length > 0);
    const agentPid = eventsOf(await project.journal(), 'session_started')[0]?.agentPid;
    expect(agentPid).toBeGreaterThan(0);
    process.kill(agentPid ?? 0, 'SIGKILL');
    const result = await run.done;
    for (const pid of livePids(/^sleep 27$/)) process.kill(pid, 'SIGKILL');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const ended = eventsOf(await project.journal(), 'session_ended');
    // Two calls of 50,000 input tokens on claude-haiku-4-5 at $1 per million.
    expect(ended[0]).toMatchObject({ costEstimated: true, inputTokens: 100_000 });
    expect(ended[0]?.costUsd).toBeCloseTo(0.1, 6);
    expect(ended[1]?.costEstimated).toBeUndefined();
    expect(result.stdout).toMatch(/total .*~\$0\.\d\d/);
    expect(result.stdout).toContain("~ includes debussy's estimate");
    const status = await project.run(['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ run: { phases: { '1': { estimatedCostUsd: expect.closeTo(0.1, 6) as unknown } } } });
  }, 120_000);

  it('a malformed prices entry: one line naming it, exit 2, nothing run', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'One' }], script: [], config: { prices: { 'my-model': 'cheap' } } });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toContain('prices.my-model: "cheap" is not four prices');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(project.api.mainRequests()).toEqual([]);
    expect(await project.journal()).toEqual([]);
  });
});

