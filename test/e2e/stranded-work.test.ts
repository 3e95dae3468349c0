/**
 * "Nothing stranded": whatever ends a run, the agent's work is committed or carried, and the next
 * `debussy run` resumes the phase from its checkpoint. Through the built debussy, the real claude
 * CLI against the scripted server, and real git.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/scripted-api.js';
import { firstUserText } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { assistantTurns, bash, done, scriptBySession, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

const FAST = { claude_max_retries: 0, backoff_base: '100ms', backoff_max: '1s' };
const BAD_KEY: ScriptedTurn = { kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' };

function checkpointPrompts(p: E2EProject): string[] {
  return p.api.mainRequests().filter((r) => sessionKind(r) === 'checkpoint' && assistantTurns(r) === 0).map(firstUserText);
}

describe('an API failure mid-phase', () => {
  it('a 401 after the agent edited a tracked file, then a resume without the key: the next run resumes from the checkpoint and commits the edit in the phase', async () => {
    let keyValid = false;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Bad key' }],
      config: FAST,
      files: { 'src/app.txt': 'version one\n' },
      script: (req) => {
        if (!keyValid) {
          const turns = [bash("echo 'version two, by the agent' > src/app.txt"), bash('debussy progress --phase 1 --message "rewrote src/app.txt"')];
          return sessionKind(req) === 'fresh' ? (turns[assistantTurns(req)] ?? BAD_KEY) : BAD_KEY;
        }
        return [bash('debussy done --phase 1'), done()][assistantTurns(req)] ?? done();
      },
    });
    const base = (await project.git('rev-parse', 'HEAD')).trim();

    const first = await project.run(['run', project.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(project.read('src/app.txt')).toBe('version two, by the agent\n');

    // A first resume in a terminal without the key fails the same way, and strands nothing either.
    const second = await project.run(['run', project.planArg]);
    expect(second.code, second.stdout + second.stderr).toBe(3);
    expect(eventsOf(await project.journal(), 'recovery')).toMatchObject([{ failureClass: 'authentication', action: 'abort' }]);

    keyValid = true;
    const third = await project.run(['run', project.planArg]);
    expect(third.code, third.stdout + third.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'attempt_started')[0]?.kind).toBe('resume');
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    const prompts = checkpointPrompts(project);
    expect(prompts.at(-1)).toContain('1. rewrote src/app.txt');

    // The edit is the phase's: committed by it, never named as the user's.
    const committed = await project.git('log', '--name-only', '--format=', `${base}..HEAD`);
    expect(committed).toContain('src/app.txt');
    expect(await project.git('show', 'HEAD:src/app.txt')).toBe('version two, by the agent\n');
    expect(third.stdout).not.toContain('before the phase began');
    expect(third.stdout).not.toContain('changed while debussy was stopped');
    expect(await project.git('status', '--porcelain', '--untracked-files=no')).toBe('');
  });
});

describe('a phase that failed', () => {
  it("its work stays in the tree (commit_on_failure off) and is carried: the next run resumes the phase and commits it; the user's edit since stays out", async () => {
    let fixed = false;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Fails once' }],
      config: { max_retries: 0 },
      files: { 'mine.txt': 'the user\'s\n' },
      script: (req) => {
        const turns = fixed
          ? [bash('debussy done --phase 1'), done()]
          : [write('feature.txt', 'half a feature\n'), bash('debussy progress --phase 1 --message "wrote half of feature.txt"'), bash('debussy done --phase 1 --status failed --reason "cannot finish today"'), done()];
        return turns[assistantTurns(req)] ?? done();
      },
    });
    const base = (await project.git('rev-parse', 'HEAD')).trim();
    const first = await project.run(['run', project.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(await project.git('log', '--name-only', '--format=', `${base}..HEAD`)).toBe('');
    expect(eventsOf(await project.journal(), 'uncommitted_at_stop')).toMatchObject([{ files: [{ path: 'feature.txt' }] }]);

    project.write('mine.txt', 'edited by the user while debussy was stopped\n');
    fixed = true;
    const second = await project.run(['run', project.planArg]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'attempt_started')[0]?.kind).toBe('resume');
    expect(checkpointPrompts(project).at(-1)).toContain('1. wrote half of feature.txt');
    expect(await project.git('log', '--name-only', '--format=', `${base}..HEAD`)).toContain('feature.txt');
    expect(await project.git('log', '--name-only', '--format=', `${base}..HEAD`)).not.toContain('mine.txt');
    expect(project.read('mine.txt')).toBe('edited by the user while debussy was stopped\n');
    expect(second.stdout).toContain('mine.txt (changed while debussy was stopped)');
  });
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
        checkpoint: [1, 2, 3, 4, 5, 6].map((n) => bash(`echo ${n} > step-${n}.txt`, TURN)),
      }),
    });
    const first = project.start(['run', project.planArg, '--max-cost', '0.32']);
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

describe('Ctrl-C during the end-of-run regression check', () => {
  it('an unfinished check is a pending check: the next run checks again, and a regression found before stays found', async () => {
    const slow = path.join(os.tmpdir(), `debussy-slow-gate-${process.pid}`);
    const gate = { name: 'one', command: `if [ -f ${slow} ]; then sleep 29.72; fi; test -f one.txt || { echo "one.txt is missing"; exit 1; }` };
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Builds one', gates: [gate] }, { id: '2', title: 'Breaks one', dependsOn: ['1'], gates: [{ name: 'two', command: 'true' }] }],
      script: (req) => {
        const phase = /You are executing phase (\S+)/.exec(firstUserText(req))?.[1];
        const turns = phase === '1' ? [write('one.txt', '1\n'), bash('debussy done --phase 1'), done()] : [bash('rm one.txt'), bash('debussy done --phase 2'), done()];
        return turns[assistantTurns(req)] ?? done();
      },
    });
    /** Runs debussy and interrupts the end check while it runs gate one (slowed down once `after` holds). */
    const interruptTheCheck = async (after: () => Promise<boolean>): Promise<void> => {
      try {
        const run = project?.start(['run', project.planArg]);
        await waitFor('the moment to slow gate one down', after, 60_000);
        writeFileSync(slow, '');
        await waitFor('the regression check to run gate one', () => livePids(/^sleep 29\.72$/).length > 0, 60_000);
        run?.child.kill('SIGINT');
        const interrupted = await run?.done;
        expect(interrupted?.code, (interrupted?.stdout ?? '') + (interrupted?.stderr ?? '')).toBe(130);
      } finally {
        rmSync(slow, { force: true });
      }
    };

    // Both phases complete; Ctrl-C while the end check runs gate one, before its verdict.
    const phaseTwoStarted = async () => eventsOf((await project?.journal()) ?? [], 'phase_started').some((e) => e.phaseId === '2');
    await interruptTheCheck(phaseTwoStarted);
    expect(eventsOf(await project.journal(), 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
    expect(eventsOf(await project.journal(), 'regression_result')).toEqual([]);
    const second = await project.run(['run', project.planArg]);
    expect(second.code, second.stdout + second.stderr).toBe(1);
    expect(second.stdout).toContain('regression: gate one of phase 1 fails at the end of the run');

    // The regression found, a check run again and interrupted: still found.
    await interruptTheCheck(() => Promise.resolve(true));
    const fourth = await project.run(['run', project.planArg]);
    expect(fourth.code, fourth.stdout + fourth.stderr).toBe(1);
    expect(fourth.stdout).toContain('regression: gate one of phase 1 fails at the end of the run');
    expect(fourth.stdout).not.toContain('run completed');
  }, 180_000);
});

describe("the agent removes debussy's live directory (.git/debussy)", () => {
  it("the lock, the agent's debussy and its inbox are put back: a later debussy done reaches the run", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Removes .git/debussy' }],
      config: { max_retries: 0 },
      script: scriptBySession({
        fresh: [write('work.txt', 'work\n'), bash('rm -rf .git/debussy && echo removed'), bash('debussy done --phase 1; echo "done exit $?"'), done()],
        reminder: [bash('debussy done --phase 1; echo "done exit $?"'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(project.sessionLogs()).not.toMatch(/done exit 127|command not found/);
    const events = await project.journal();
    expect(eventsOf(events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'notice').map((n) => n.message).join('\n')).toMatch(/agent's debussy .*was deleted during the run; it was written back/);
  });

  it('when they cannot be put back (a file where the directory was), the run stops with exit 8, its work committed, and resumes', async () => {
    // Again until it holds: under load the run can write the directory back between rm and echo.
    const BLOCK_LIVE_DIR = 'until [ -f .git/debussy ]; do rm -rf .git/debussy; echo blocked 2>/dev/null > .git/debussy; done; (sleep 3)';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Blocks .git/debussy' }],
      script: scriptBySession({
        fresh: [write('work.txt', 'work\n'), bash(BLOCK_LIVE_DIR), bash('debussy done --phase 1'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(8);
    const events = await project.journal();
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 8 }]);
    expect(await project.git('log', '--name-only', '--format=', '-1')).toContain('work.txt');

    rmSync(path.join(project.dir, '.git/debussy'));
    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'attempt_started')[0]?.kind).toBe('resume');
  });
});

describe("the agent deletes debussy's inputs", () => {
  it.each([
    ['rm -rf .debussy', 'its config'],
    ['rm -rf plans', 'the plan it runs'],
  ])('%s (%s): never committed; put back as the run read them, the run stops and says so, and resumes', async (command) => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Deletes inputs' }],
      script: scriptBySession({
        fresh: [write('work.txt', 'work\n'), bash(`${command} && (sleep 2)`), bash('debussy done --phase 1'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const config = project.read('.debussy/config.yaml');
    const plan = project.read(project.planArg);
    const base = (await project.git('rev-parse', 'HEAD')).trim();

    const first = await project.run(['run', project.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(8);
    const committed = await project.git('log', '--name-status', '--format=', `${base}..HEAD`);
    expect(committed).toContain('work.txt');
    expect(committed).not.toMatch(/^D\t/m);
    expect(first.stdout + first.stderr).toMatch(/the agent deleted debussy's config or plan \(.*\); debussy wrote them back as the run read them, and their deletion is not committed/);
    expect(project.read('.debussy/config.yaml')).toBe(config);
    expect(project.read(project.planArg)).toBe(plan);
    expect(await project.git('status', '--porcelain', '--untracked-files=no')).toBe('');

    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'attempt_started')[0]?.kind).toBe('resume');
  });
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
    installPreCommitHook(project, 'if [ -f .git/slow-hook ]; then sleep 29.41; fi\nexit 0');
    writeFileSync(path.join(project.dir, '.git/slow-hook'), '');
    const base = (await project.git('rev-parse', 'HEAD')).trim();
    const first = project.start(['run', project.planArg]);
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

  it('a formatting hook that rewrites and restages a file (lint-staged style) leaves the index equal to HEAD', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Formatted' }, { id: '2', title: 'Next', dependsOn: ['1'] }],
      script: (req) => {
        const phase = /You are executing phase (\S+)/.exec(firstUserText(req))?.[1];
        const turns = phase === '1' ? [write('src/a.txt', 'ugly code\n'), bash('debussy done --phase 1'), done()] : [write('src/b.txt', 'more\n'), bash('debussy done --phase 2'), done()];
        return turns[assistantTurns(req)] ?? done();
      },
    });
    project.write('mine.txt', 'tracked\n');
    await project.git('add', 'mine.txt');
    await project.git('commit', '-q', '-m', 'a file of the user');
    installPreCommitHook(project, [
      'git diff --cached --name-only --diff-filter=ACM -z | xargs -0 -r -n1 sh -c \'case "$0" in *.txt) sed -i "s/ugly/pretty/" "$0" && git add "$0";; esac\'',
    ].join('\n'));
    const base = (await project.git('rev-parse', 'HEAD')).trim();
    // The user's own staged edit must stay staged, untouched by the hook and by debussy.
    project.write('mine.txt', 'staged by the user\n');
    await project.git('add', 'mine.txt');

    const result = await project.run(['run', project.planArg, '--allow-dirty']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await project.git('show', 'HEAD:src/a.txt')).toBe('pretty code\n');
    expect(project.read('src/a.txt')).toBe('pretty code\n');
    expect(await project.git('status', '--porcelain')).toBe('M  mine.txt\n');
    expect(await project.git('show', ':mine.txt')).toBe('staged by the user\n');
    expect(await project.git('log', '--name-only', '--format=', `${base}..HEAD`)).not.toContain('mine.txt');
    expect(result.stdout).not.toContain('src/a.txt (modified before the phase began)');
  });
});
