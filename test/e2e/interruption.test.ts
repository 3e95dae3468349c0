/**
 * Issue 4 acceptance: an interrupted run resumes where it stopped with nothing lost, after Ctrl-C
 * and after `kill -9` of debussy itself, with no process of the dead run left behind.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('Ctrl-C', () => {
  it('stops the session, commits the work as a checkpoint, exits 130; debussy run resumes', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Interrupted' }],
      script: scriptBySession({
        fresh: [write('wip.txt', 'work in progress\n'), bash('(sleep 21)'), bash('debussy done --phase 1'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
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

    const status = await project.run(['status']);
    expect(status.stdout).toContain('resumes phase 1 from its checkpoint');

    // `debussy resume` is `debussy run` on the last run's plan.
    const resumed = await project.run(['resume']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const again = await project.journal();
    expect(eventsOf(again, 'run_started')[0]?.resumedFrom).toBe(eventsOf(events, 'run_started')[0]?.runId);
    expect(eventsOf(again, 'attempt_started')[0]?.kind).toBe('resume');
    const resumedPrompt = project.api.mainRequests().filter((r) => sessionKind(r) === 'checkpoint')[0];
    expect(resumedPrompt && firstUserText(resumedPrompt)).toContain('wip.txt');
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


describe('kill -9 of debussy mid-phase', () => {
  it('the next run reclaims the lock, ends the orphaned agent and its tools, keeps every commit, and completes the phase', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'First' }, { id: '2', title: 'Killed in the middle', dependsOn: ['1'] }],
      script: (req) => {
        const phase = /You are executing phase (\S+)/.exec(firstUserText(req))?.[1];
        const kind = sessionKind(req);
        const turns =
          phase === '1'
            ? [write('one.txt', 'one\n'), bash('debussy done --phase 1'), done()]
            : kind === 'checkpoint'
              ? [bash('debussy done --phase 2'), done()]
              : [write('README.md', 'changed by the agent\n'), bash('(sleep 23)'), done()];
        const body = req.body as { messages?: { role?: string }[] };
        return turns[(body.messages ?? []).filter((m) => m.role === 'assistant').length] ?? done();
      },
    });
    const first = project.start(['run', project.planArg]);
    await waitFor('the agent to run sleep 23', () => livePids(/^sleep 23$/).length > 0);
    const headBefore = (await project.git('rev-parse', 'HEAD')).trim();
    first.child.kill('SIGKILL');
    await first.done;
    expect(livePids(/^sleep 23$/).length).toBeGreaterThan(0); // the orphans are really there

    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/reclaimed a stale lock from run \S+ \(pid \d+ is no longer running\)/);
    expect(resumed.stdout).toMatch(/ended \d+ process\(es\) it left behind/);
    expect(livePids(/^sleep 23$/)).toEqual([]);

    // Every commit from before the kill is still in history.
    expect(await project.git('merge-base', '--is-ancestor', headBefore, 'HEAD').then(() => true, () => false)).toBe(true);
    const subjects = (await project.git('log', '--format=%s')).split('\n');
    expect(subjects).toContain('debussy: phase 1 First completed');
    expect(subjects).toContain('debussy: phase 2 Killed in the middle completed');
    expect(project.read('README.md')).toBe('changed by the agent\n');

    const events = await project.journal();
    expect(eventsOf(events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
    expect(eventsOf(events, 'attempt_started')[0]).toMatchObject({ phaseId: '2', kind: 'resume' });
  });
});
