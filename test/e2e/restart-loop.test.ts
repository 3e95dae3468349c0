/**
 * Issue 3 acceptance, through the real claude CLI against the scripted server: context crossing,
 * graceful stop, auto-commit, checkpoint restart, the context flags, and the tool-call fallback.
 * One-shot mode, max_restarts spent and a phase completed in one session are the run loop's
 * decisions, shown in process in test/orchestrator/run-loop.test.ts.
 */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession, sessionKind, write } from './session-script.js';

const CROSSING_USAGE = { input_tokens: 165_000 }; // 82.5% of sonnet's 200,000-token window

function restartScript(): ReturnType<typeof scriptBySession> {
  return scriptBySession({
    fresh: [
      bash('debussy progress --phase 1 --message "wrote part one"'),
      // The crossing turn: its tool still runs when debussy is starved (SIGSTOP, below).
      bash("(sleep 2) && printf 'part one\\n' > part1.txt", { usage: CROSSING_USAGE }),
      // Answered at once, while debussy cannot read the stream: the guard alone keeps it from running.
      bash('touch after-crossing.txt'),
      bash('debussy done --phase 1'),
      done(),
    ],
    checkpoint: [write('part2.txt', 'part two\n'), bash('debussy done --phase 1'), done()],
  });
}

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

function mainOf(kind: string): RecordedRequest[] {
  return (project?.api.mainRequests() ?? []).filter((r) => sessionKind(r) === kind);
}

describe('crossing the context threshold', () => {
  it('stops before the next model turn (even with debussy starved while the crossing turn\'s tool runs), commits, restarts with the checkpoint; claude itself runs `debussy done`; exit 0, completed', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Restart me', gates: [{ name: 'part1', command: 'test -f part1.txt' }] }], script: restartScript() });
    const { child, done: finished } = project.start(['run', project.planArg]);
    // debussy is SIGSTOPped once the stop is decided, while the crossing turn's command sleeps: it
    // cannot read that the tool is done, and claude asks again meanwhile, answered at once.
    const until = Date.now() + 60_000;
    while (!eventsOf(await project.journal(), 'stop_requested').length && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 250));
    child.kill('SIGSTOP');
    const stoppedAt = Date.now();
    try {
      expect(existsSync(path.join(project.dir, 'part1.txt')), "the crossing turn's command had finished before debussy was stopped: the race was not run").toBe(false);
      while (mainOf('fresh').length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    } finally {
      child.kill('SIGCONT');
    }
    const result = await finished;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toBe('');

    // The crossing turn's tool ran; nothing after it did, though claude asked for the next turn while debussy was stopped.
    expect(existsSync(path.join(project.dir, 'part1.txt'))).toBe(true);
    expect(existsSync(path.join(project.dir, 'after-crossing.txt'))).toBe(false);
    expect(mainOf('fresh')[2]?.receivedAt).toBeGreaterThan(stoppedAt);

    const events = await project.journal();
    expect(eventsOf(events, 'context_crossed')).toMatchObject([{ phaseId: '1', trigger: 'context', threshold: 80, stopping: true }]);
    expect(eventsOf(events, 'context_crossed')[0]?.percent).toBeGreaterThanOrEqual(80);
    expect(eventsOf(events, 'restart')).toMatchObject([{ phaseId: '1', restart: 1, maxRestarts: 3 }]);
    // Every session's tokens are known. The stopped one usually prints no result (then its tokens
    // come from the stream and its cost is marked unknown rather than $0); when claude does print
    // one after the SIGINT, its own figures count.
    const ended = eventsOf(events, 'session_ended');
    expect(ended[0]?.outcome).toBe('stopped');
    if (ended[0]?.costUnknown === true) expect(ended[0].costUsd).toBe(0);
    else expect(ended[0]?.costUsd).toBeGreaterThan(0);
    expect(ended[1]).toMatchObject({ outcome: 'completed' });
    expect(ended[1]?.costUnknown).toBeUndefined();
    for (const session of ended) expect(session.inputTokens + session.outputTokens, JSON.stringify(session)).toBeGreaterThan(0);
    const checkpointCommit = eventsOf(events, 'commit').find((c) => c.purpose === 'checkpoint');
    expect(checkpointCommit).toBeDefined();
    const committed = execFileSync('git', ['show', '--name-only', '--format=%s', checkpointCommit?.sha ?? 'HEAD'], { cwd: project.dir, encoding: 'utf8' });
    expect(committed).toContain('part1.txt');
    expect(committed).toMatch(/checkpoint phase 1 \(restart 1\/3, context 8\d%\)/);

    const restarted = mainOf('checkpoint')[0];
    expect(restarted).toBeDefined();
    const prompt = firstUserText(restarted as RecordedRequest);
    expect(prompt.startsWith('# debussy checkpoint: continuing phase 1')).toBe(true);
    expect(prompt).toContain('wrote part one');
    expect(prompt).toContain('part1.txt');
    expect(prompt.indexOf('# debussy checkpoint')).toBeLessThan(prompt.indexOf('You are executing phase 1'));

    expect(eventsOf(events, 'session_started')).toHaveLength(2);
    expect(eventsOf(events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    // The agent's call was answered by the run itself, through its inbox: no node process of its
    // own wrote the signal.
    expect(eventsOf(events, 'signal')[0]?.pid).toBe(eventsOf(events, 'run_started')[0]?.pid);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'completed', exitCode: 0 }]);
    // The restarted session's work is in the phase's own commit.
    expect((await project.git('log', '-1', '--format=%s')).trim()).toBe('debussy: phase 1 Restart me completed');
    expect((await project.git('show', '--name-only', '--format=', 'HEAD')).trim()).toBe('part2.txt');
    const status = JSON.parse((await project.run(['status', '--json'])).stdout) as { run: { status: string; phases: Record<string, { status: string; attempts: number; restarts: number; commits: unknown[]; sessions: { peakContextPercent: number }[] }> } };
    expect(status.run).toMatchObject({ status: 'completed', phases: { '1': { status: 'completed', attempts: 2, restarts: 1 } } });
    expect(status.run.phases['1']?.commits.length).toBe(2); // the checkpoint, then the phase's completion
    expect(status.run.phases['1']?.sessions[0]?.peakContextPercent).toBeGreaterThanOrEqual(80);
    const text = (await project.run(['status'])).stdout;
    expect(text).toMatch(/1 #1: stopped, peak context 8\d\.\d% \([\d,]+ of 200,000 tokens, limit 160,000 \(context_threshold\)\)/);
    expect(text).toMatch(/1 #2: completed/);
  });

  // One-shot mode and max_restarts spent: test/orchestrator/run-loop.test.ts (in process).
});

describe('the tool-call fallback and the context flags', () => {
  it('restarts after tool_call_threshold tool calls; the flags override the config file; under --context-threshold 90 and --max-context-tokens 0 a turn at 82.5% goes on', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Many tools' }],
      // Each of the file's context_threshold 70 and the default cap (160,000) would stop the session at the first turn.
      config: { tool_call_threshold: 50, context_threshold: 70, max_restarts: 2 },
      script: scriptBySession({
        fresh: [write('part1.txt', 'part one\n', { usage: CROSSING_USAGE }), bash('touch after-crossing.txt'), bash('touch third-tool.txt', { latencyMs: 1500 }), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg, '--tool-call-threshold', '2', '--context-threshold', '90', '--max-context-tokens', '0']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    // The 82.5% turn crossed nothing, so its next tool ran; the second tool call crossed the fallback.
    expect(eventsOf(events, 'context_crossed')).toMatchObject([{ trigger: 'tool_calls', toolCalls: 2, threshold: 2 }]);
    expect(existsSync(path.join(project.dir, 'after-crossing.txt'))).toBe(true);
    expect(eventsOf(events, 'restart')).toMatchObject([{ restart: 1, maxRestarts: 2 }]);
    expect(existsSync(path.join(project.dir, 'third-tool.txt'))).toBe(false);
    expect(eventsOf(events, 'run_started')[0]?.options).toMatchObject({ tool_call_threshold: 2, context_threshold: 90, max_restarts: 2 });
  });
});

describe('stopping while a tool runs', () => {
  it('a session stopped during Bash `sleep` (session timeout) leaves no sleep process behind', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Sleepy' }],
      config: { stop_grace: '1s', session_timeout: '12s', max_retries: 1 },
      script: scriptBySession({
        fresh: [bash('(sleep 37)'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'stop_requested')[0]?.reason).toContain('session timeout');
    const ps = execFileSync('ps', ['-eo', 'pid,stat,args'], { encoding: 'utf8' });
    expect(ps.split('\n').filter((line) => /\bsleep 37\b/.test(line) && !/ Z/.test(line))).toEqual([]);
  });
});
