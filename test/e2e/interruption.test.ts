/**
 * Issue 4 acceptance: an interrupted run resumes where it stopped with nothing lost, after Ctrl-C
 * and after `kill -9` of debussy itself, with no process of the dead run left behind. One project
 * goes through both: Ctrl-C in phase 1, `debussy resume` completes it and is killed -9 in phase 2,
 * and a plain `debussy run` completes that.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { assistantTurns, bash, done, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('Ctrl-C, then kill -9 of debussy mid-phase', () => {
  it('Ctrl-C stops the session, commits its work, exits 130 and `debussy resume` resumes it; after kill -9 the next run reclaims the lock, ends the orphaned agent and its tools, keeps every commit, and completes', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Interrupted' }, { id: '2', title: 'Killed in the middle', dependsOn: ['1'] }],
      script: (req) => {
        const phase = /You are executing phase (\S+)/.exec(firstUserText(req))?.[1] ?? '?';
        // Phase 1's resumed session adds a file, so the run killed later commits the phase's completion first.
        const turns = sessionKind(req) === 'checkpoint'
          ? [...(phase === '1' ? [write('one.txt', 'one\n')] : []), bash(`debussy done --phase ${phase}`), done()]
          : phase === '1'
            ? [write('wip.txt', 'work in progress\n'), bash('(sleep 21)'), bash('debussy done --phase 1'), done()]
            : [write('README.md', 'changed by the agent\n'), bash('(sleep 23)'), done()];
        return turns[assistantTurns(req)] ?? done();
      },
    });
    const first = project.start(['run', project.planArg]);
    await waitFor('the agent to run sleep 21', () => livePids(/^sleep 21$/).length > 0);
    first.child.kill('SIGINT');
    const interrupted = await first.done;
    expect(interrupted.code, interrupted.stdout + interrupted.stderr).toBe(130);
    expect(livePids(/^sleep 21$/)).toEqual([]);

    const events = await project.journal();
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    const commit = eventsOf(events, 'commit').find((c) => c.purpose === 'interrupted');
    expect(commit).toBeDefined();
    expect(await project.git('show', '--name-only', '--format=', commit?.sha ?? 'HEAD')).toContain('wip.txt');
    expect(interrupted.stdout).toContain('To resume: debussy run plans/e2e/MASTER_PLAN.md');
    // What `debussy status` says of the interrupted run (resumes phase 1 from its checkpoint):
    // test/orchestrator/status-next-after-interrupt.test.ts.

    // `debussy resume` is `debussy run` on the last run's plan: phase 1 resumes from its checkpoint
    // and completes; it is killed -9 while phase 2's agent sleeps.
    const second = project.start(['resume']);
    await waitFor('the agent to run sleep 23', () => livePids(/^sleep 23$/).length > 0);
    const again = await project.journal();
    expect(eventsOf(again, 'run_started')[0]?.resumedFrom).toBe(eventsOf(events, 'run_started')[0]?.runId);
    expect(eventsOf(again, 'attempt_started')[0]).toMatchObject({ phaseId: '1', kind: 'resume' });
    expect(eventsOf(again, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    const resumedPrompt = project.api.mainRequests().filter((r) => sessionKind(r) === 'checkpoint')[0];
    expect(resumedPrompt && firstUserText(resumedPrompt)).toContain('wip.txt');
    const headBefore = (await project.git('rev-parse', 'HEAD')).trim();
    // The killed session's files in the temporary directory (its stop guard's), made as it started.
    const killedMarker = eventsOf(await project.journal(), 'session_started').at(-1)?.marker ?? '';
    const leftFiles = () => readdirSync(os.tmpdir()).filter((name) => killedMarker !== '' && name.includes(killedMarker));
    second.child.kill('SIGKILL');
    await second.done;
    expect(livePids(/^sleep 23$/).length).toBeGreaterThan(0); // the orphans are really there
    expect(leftFiles().length).toBeGreaterThan(0);

    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/reclaimed a stale lock from run \S+ \(pid \d+ is no longer running\)/);
    expect(resumed.stdout).toMatch(/ended \d+ process\(es\) it left behind/);
    expect(livePids(/^sleep 23$/)).toEqual([]);
    expect(leftFiles()).toEqual([]);

    // Every commit from before the kill is still in history.
    expect(await project.git('merge-base', '--is-ancestor', headBefore, 'HEAD').then(() => true, () => false)).toBe(true);
    const subjects = (await project.git('log', '--format=%s')).split('\n');
    expect(subjects).toContain('debussy: phase 1 Interrupted completed');
    expect(subjects).toContain('debussy: phase 2 Killed in the middle completed');
    expect(project.read('README.md')).toBe('changed by the agent\n');
    expect(project.read('wip.txt')).toBe('work in progress\n');
    expect(await project.git('log', '-1', '--format=%s', headBefore)).toBe('debussy: phase 1 Interrupted completed\n');

    const last = await project.journal();
    expect(eventsOf(last, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
    expect(eventsOf(last, 'attempt_started')[0]).toMatchObject({ phaseId: '2', kind: 'resume' });
  });
});

describe('SIGTERM twice', () => {
  it('the second signal ends a session that ignores the stop at once; exit 130, nothing left running', async () => {
    // An agent that ignores SIGINT and SIGTERM (the real CLI cannot be made to): only the second
    // signal's kill can end it before debussy's own escalation.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-stubborn-'));
    const agent = path.join(dir, 'stubborn-agent.sh');
    // A duration no other process on the machine has (a person's `sleep 300` once made this test
    // signal a run whose agent had not started yet).
    const seconds = `300.${process.pid}`;
    const agentSleep = new RegExp(`^sleep ${seconds.replace('.', '\\.')}$`);
    writeFileSync(agent, `#!/bin/sh\ntrap '' INT TERM\necho '{"type":"system","subtype":"init","session_id":"s-stubborn","model":"m","tools":[]}'\nsleep ${seconds} &\nwait\nwait\n`);
    chmodSync(agent, 0o755);
    try {
      project = await E2EProject.create({ phases: [{ id: '1', title: 'Stubborn' }], script: [], config: { claude_command: agent, stop_grace: '60s' } });
      const run = project.start(['run', project.planArg]);
      await waitFor('the agent to run its sleep', () => livePids(agentSleep).length > 0);
      run.child.kill('SIGTERM');
      await waitFor('debussy to ask the session to stop', () => run.child.exitCode === null && (project?.sessionLogs() ?? '').includes('): SIGINT'));
      run.child.kill('SIGTERM');
      const result = await run.done;
      expect(result.code, result.stdout + result.stderr).toBe(130);
      expect(result.stderr).toContain('debussy: ending now');
      expect(project?.sessionLogs() ?? '').toContain('interrupted twice: ending the session now');
      expect(livePids(agentSleep)).toEqual([]);
      expect(eventsOf(await project.journal(), 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
