/**
 * "Nothing stranded" where debussy itself is killed (kill -9): the killed session's spend and the
 * work of a commit cut short are taken on by the next `debussy run`. Through the built debussy, the
 * real claude CLI against the scripted server, and real git. What is debussy's own decision (a
 * failed or aborted phase carried, an interrupted end check, the agent deleting the run's files, a
 * formatting hook) is shown in process: test/orchestrator/carried-work.test.ts,
 * test/verification/interrupted-end-check.test.ts, test/orchestrator/agent-deletes-run-files.test.ts,
 * test/git/run-commit-hooks.test.ts.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('spend after kill -9', () => {
  // claude-haiku-4-5 costs $1 per million input tokens (claude's own table): each turn $0.05.
  const TURN = { usage: { input_tokens: 50_000, output_tokens: 0 } };

  it("the killed session's cost (its usage is in its stream log) counts against max_cost when the run is resumed", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Killed while spending' }],
      usage: 'scripted',
      config: { model: 'claude-haiku-4-5' },
      script: scriptBySession({
        fresh: [write('a.txt', 'a\n', TURN), write('b.txt', 'b\n', TURN), bash('(sleep 27.53)', TURN)],
        // The model answers after a second, as a real API does: the budget's stop, decided on the
        // third turn's usage, then aborts the fourth request in flight. With instant answers the
        // fourth response could complete first and be billed (claude's documented limit, shown in
        // agent-session.claude.test.ts): 1 run in 2 with four test files at a time.
        checkpoint: [1, 2, 3, 4, 5, 6].map((n) => bash(`echo ${n} > step-${n}.txt`, { ...TURN, latencyMs: 1_000 })),
      }),
    });
    const first = project.start(['run', project.planArg, '--max-cost', '0.32']);
    // Its third turn's usage read from claude's stdout into the stream log: under load, claude can
    // start the tool before debussy has read the lines, and a kill -9 then takes them with it. That
    // wait (a read of the logs here) comes first, so `ps` polls only the moment before the sleep.
    await waitFor('the stream log to hold the third turn', () => project?.sessionLogs('.stream.ndjson').includes('sleep 27.53') === true);
    await waitFor('the agent to run sleep 27.53', () => livePids(/^sleep 27\.53$/).length > 0);
    first.child.kill('SIGKILL');
    await first.done;

    const resumed = await project.run(['run', project.planArg, '--max-cost', '0.32']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(9);
    const events = await project.journal();
    // Three $0.05 turns of the killed session, estimated from its stream log.
    expect(eventsOf(events, 'run_started')[0]?.priorCostUsd).toBeCloseTo(0.15, 6);
    expect(eventsOf(events, 'run_started')[0]?.priorCostEstimatedUsd).toBeCloseTo(0.15, 6);
    expect(eventsOf(events, 'phase_resumed')[0]?.priorCostUsd).toBeCloseTo(0.15, 6);
    // The budget stops the resumed session at $0.30 in all, not at $0.30 of its own.
    const reached = eventsOf(events, 'budget_reached')[0];
    expect(reached?.spentUsd).toBeCloseTo(0.3, 6);
    expect(eventsOf(events, 'session_ended').reduce((sum, e) => sum + e.costUsd, 0)).toBeCloseTo(0.15, 6);
  }, 120_000);
});

/** A pre-commit hook in the temp repo (core.hooksPath is .git/hooks there). */
function installPreCommitHook(p: E2EProject, body: string): void {
  const hook = path.join(p.dir, '.git/hooks/pre-commit');
  mkdirSync(path.dirname(hook), { recursive: true });
  writeFileSync(hook, `#!/bin/sh\n${body}\n`);
  chmodSync(hook, 0o755);
}

describe('commits through hooks', () => {
  it('kill -9 of debussy during the final commit (a slow pre-commit hook): the next run commits the work in the phase', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Slow hook' }],
      script: scriptBySession({
        fresh: [write('agent.txt', 'the agent\n'), bash('debussy done --phase 1'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    // The hook says it started (a file, read here) before `ps` is polled for its sleep.
    installPreCommitHook(project, 'if [ -f .git/slow-hook ]; then touch .git/slow-hook-started; sleep 29.41; fi\nexit 0');
    writeFileSync(path.join(project.dir, '.git/slow-hook'), '');
    const base = (await project.git('rev-parse', 'HEAD')).trim();
    const first = project.start(['run', project.planArg]);
    await waitFor('the pre-commit hook to start', () => existsSync(path.join(project?.dir ?? '', '.git/slow-hook-started')));
    await waitFor('the pre-commit hook to run sleep 29.41', () => livePids(/^sleep 29\.41$/).length > 0);
    first.child.kill('SIGKILL');
    await first.done;
    rmSync(path.join(project.dir, '.git/slow-hook'));

    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).not.toContain('changed while debussy was stopped');
    const events = await project.journal();
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'commit').map((c) => c.files)).not.toContain(0);
    expect(await project.git('log', '--name-only', '--format=', `${base}..HEAD`)).toContain('agent.txt');
    expect(await project.git('status', '--porcelain')).toBe('');
  });
});
