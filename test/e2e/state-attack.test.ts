/**
 * Issue 12, "state under attack": debussy's own state deleted, unwritable, torn or flooded while
 * or before a run, through the built binary and the real claude CLI against the scripted server.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPath } from '../../src/state/index.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

function noInternalError(result: { stdout: string; stderr: string }): void {
  expect(result.stderr + result.stdout).not.toContain('internal error');
  expect(result.stderr + result.stdout).not.toContain('This is a bug');
  expect(result.stderr).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);
}

describe('the agent deletes .debussy/ (git clean -fdx) during a session', () => {
  it('debussy notices, stops the session, restores the journal, keeps its lock, and the next run resumes', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Cleaned' }],
      script: scriptBySession({
        fresh: [write('work.txt', 'the agent wrote this\n'), bash('git clean -fdx -e work.txt && sleep 9'), bash('debussy done --phase 1'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const first = project.start(['run', project.planArg]);
    const runs = path.join(project.dir, '.debussy/runs');
    const endedEarly = first.done.then((r) => {
      throw new Error(`debussy ended before the agent cleaned (exit ${r.code}): ${r.stdout}${r.stderr}`);
    });
    await Promise.race([waitFor('the agent to run git clean and sleep', () => livePids(/^sleep 9$/).length > 0, 45_000), endedEarly]);
    endedEarly.catch(() => undefined);
    // The journal and everything else under .debussy/runs went with the clean.
    const second = await project.run(['run', project.planArg]);
    expect(second.code, second.stdout + second.stderr).toBe(6);
    expect(second.stderr).toContain('another debussy run');
    const result = await first.done;
    noInternalError(result);
    expect(livePids(/^sleep 9$/)).toEqual([]);
    expect(result.code, result.stdout + result.stderr).toBe(8);
    expect(result.stderr + result.stdout).toMatch(/debussy's state .*was deleted/);
    expect(existsSync(runs)).toBe(true);
    // The project journal (the plan last used, phase marks) went with the clean too, and is back.
    expect(readFileSync(path.join(project.dir, '.debussy/project.ndjson'), 'utf8')).toContain('"plan_used"');

    const events = await project.journal();
    expect(eventsOf(events, 'run_started')).toHaveLength(1);
    expect(eventsOf(events, 'notice').some((n) => /was deleted/.test(n.message))).toBe(true);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 8 }]);
    const commit = eventsOf(events, 'commit').at(-1);
    expect(commit && (await project.git('show', '--name-only', '--format=', commit.sha))).toContain('work.txt');

    const status = await project.run(['status']);
    expect(status.stdout).toContain('resumes phase 1 from its checkpoint');
    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    // Each run removes its shim and inbox from the git directory when it ends.
    const live = path.join(project.dir, '.git/debussy/runs');
    expect(existsSync(live) ? readdirSync(live) : []).toEqual([]);
  });

  it("the agent's debussy done after the clean reaches the run instead of failing with 127", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Cleaned then done' }],
      script: scriptBySession({
        fresh: [bash('rm -rf .debussy/runs && debussy done --phase 1; echo "done exit $?"'), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    noInternalError(result);
    // The stop lets the running command finish: the agent's done, run after the clean, was recorded for its attempt.
    const first = (await project.allJournals())[0] ?? [];
    const attempt = eventsOf(first, 'attempt_started')[0]?.attemptId;
    expect(eventsOf(first, 'signal').filter((s) => s.attemptId === attempt && s.status === 'completed')).toHaveLength(1);
    // No phase was marked done outside the run's own journal.
    expect(existsSync(path.join(project.dir, '.debussy/project.ndjson')) ? readFileSync(path.join(project.dir, '.debussy/project.ndjson'), 'utf8') : '').not.toContain('phase_marked');
    const events = await project.journal();
    expect(eventsOf(events, 'run_started')).toHaveLength(1);
    expect(eventsOf(events, 'signal').length).toBeGreaterThan(0);
  });
});

describe('outside git, the agent deletes .debussy/', () => {
  it('its debussy done still reaches the run (shim and lock live in a per-user run-time directory), and the journal is written back', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'No git' }],
      script: scriptBySession({ fresh: [bash('rm -rf .debussy && debussy done --phase 1'), done()] }),
      config: { auto_commit: false },
    });
    rmSync(path.join(project.dir, '.git'), { recursive: true, force: true });
    const result = await project.run(['run', project.planArg]);
    noInternalError(result);
    expect(result.code, result.stdout + result.stderr).toBe(8);
    const events = await project.journal();
    expect(eventsOf(events, 'run_started')).toHaveLength(1);
    expect(eventsOf(events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: 8 }]);
  });
});

describe('a .debussy that cannot be written', () => {
  it('before the run: one clear line naming the path and the fix; no lock left behind', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Unwritable' }], script: [done()] });
    // Root ignores permissions: make .debussy/runs a dangling symlink into a file.
    writeFileSync(path.join(project.dir, 'not-a-dir'), 'x');
    symlinkSync(path.join(project.dir, 'not-a-dir', 'runs'), path.join(project.dir, '.debussy/runs'));
    const result = await project.run(['run', project.planArg]);
    noInternalError(result);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain('.debussy/runs');
    expect(result.stderr).toMatch(/cannot write/);
    expect(project.api.mainRequests()).toHaveLength(0);
    expect(existsSync(lockPath(project.dir))).toBe(false);
    const again = await project.run(['run', project.planArg]);
    expect(again.stderr).not.toContain('another debussy run');
  });

  it('during the run: the session is stopped, a clear error names the path, the lock is released', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Made unwritable' }],
      script: scriptBySession({
        fresh: [write('work.txt', 'kept\n'), bash('rm -rf .debussy/runs && echo x > .debussy/runs && sleep 6'), bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    noInternalError(result);
    expect(livePids(/^sleep 6$/)).toEqual([]);
    expect(result.code, result.stdout + result.stderr).toBe(8);
    expect(result.stderr).toContain(path.join(project.dir, '.debussy/runs'));
    expect(existsSync(lockPath(project.dir))).toBe(false);
    // Nothing recorded is lost: the journal was saved outside the tree, and resumes once put back.
    const rescued = /saved to (\S+): put it back at (\S+)/.exec(result.stderr);
    expect(rescued).not.toBeNull();
    rmSync(path.join(project.dir, '.debussy/runs'), { force: true });
    mkdirSync(path.dirname(path.join(project.dir, rescued?.[2] ?? '')), { recursive: true });
    writeFileSync(path.join(project.dir, rescued?.[2] ?? ''), readFileSync(rescued?.[1] ?? ''));
    const status = await project.run(['status']);
    expect(status.stdout).toContain('resumes phase 1 from its checkpoint');
    expect(readdirSync(path.join(project.dir, '.git'))).not.toContain('index.lock');
  });
});

describe('update_plan_status', () => {
  it("commits the last phase's status, so the next run does not refuse a dirty tree", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Status kept' }],
      script: scriptBySession({ fresh: [write('a.txt', 'a\n'), bash('debussy done --phase 1'), done()] }),
      config: { update_plan_status: true },
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await project.git('status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(await project.git('show', 'HEAD:plans/e2e/MASTER_PLAN.md')).toMatch(/\| 1 \| .* \| Complete/);
    const again = await project.run(['run', project.planArg]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

describe('debussy done --plan of another project', () => {
  it("marks the phase in the plan's own project, not in the current directory's", async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Elsewhere' }], script: [done()] });
    const other = await E2EProject.create({ phases: [{ id: '9', title: 'Here' }], script: [done()] });
    try {
      const plan = path.join(project.dir, project.planArg);
      const result = await other.run(['done', '--phase', '1', '--plan', plan]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(existsSync(path.join(other.dir, '.debussy/project.ndjson'))).toBe(false);
      expect(readFileSync(path.join(project.dir, '.debussy/project.ndjson'), 'utf8')).toContain('"phaseId":"1"');
      const dry = await project.run(['run', '--dry-run', project.planArg]);
      expect(dry.stdout).toMatch(/1.*(marked done|already complete|skip)/i);
    } finally {
      await other.dispose();
    }
  });
});

describe('a torn first journal line', () => {
  it('is reported, and the rest of the journal is used by status and run', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'First' }, { id: '2', title: 'Second', dependsOn: ['1'] }],
      script: scriptBySession({ fresh: [bash('debussy done --phase "$DEBUSSY_PHASE_ID"'), done()] }),
    });
    const first = await project.run(['run', '--only', '1', project.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const runs = readdirSync(path.join(project.dir, '.debussy/runs')).filter((n) => !n.startsWith('.'));
    const journal = path.join(project.dir, '.debussy/runs', runs[0] ?? '', 'journal.ndjson');
    const lines = readFileSync(journal, 'utf8').split('\n');
    // The first line cut in the middle, as a crash mid-write leaves it; later appends follow.
    lines[0] = (lines[0] ?? '').slice(0, 120);
    writeFileSync(journal, lines.join('\n'));

    const status = await project.run(['status']);
    noInternalError(status);
    expect(status.stdout).toContain(`Run ${runs[0]}`);
    expect(status.stdout).toMatch(/first line .*damaged|torn/i);
    expect(status.stdout).toMatch(/1\s.*completed/i);
    const history = await project.run(['history']);
    expect(history.stdout).toContain(runs[0]);
    const dry = await project.run(['run', '--dry-run', project.planArg]);
    expect(dry.stdout).toMatch(/completed in run/);
  });
});

describe('a stream line too long for a string', () => {
  it('is skipped and logged with a clear error, never an uncaught stack', async () => {
    const dir = path.join(process.env.TMPDIR ?? '/tmp', `debussy-longline-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const agent = path.join(dir, 'flooding-agent.sh');
    // An agent whose one stdout line is longer than the line limit (set low for the test).
    writeFileSync(agent, [
      '#!/bin/sh',
      'echo \'{"type":"system","subtype":"init","session_id":"s-long","model":"m","tools":[]}\'',
      'printf \'{"type":"assistant","message":{"content":[{"type":"text","text":"\'',
      'head -c 3000000 /dev/zero | tr "\\0" a',
      'printf \'"}]}}\\n\'',
      'echo \'{"type":"result","subtype":"success","is_error":false,"session_id":"s-long","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1}}\'',
      '',
    ].join('\n'), { mode: 0o755 });
    try {
      project = await E2EProject.create({ phases: [{ id: '1', title: 'Flooded' }], script: [], config: { claude_command: agent, max_retries: 0 } });
      const result = await project.run(['run', project.planArg], { DEBUSSY_MAX_STREAM_LINE_BYTES: '1000000' });
      noInternalError(result);
      expect(result.stderr + result.stdout).not.toContain('ERR_STRING_TOO_LONG');
      const logs = readdirSync(path.join(project.dir, '.debussy/runs')).flatMap((run) => {
        const sessions = path.join(project?.dir ?? '', '.debussy/runs', run, 'sessions');
        return existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith('.log')).map((f) => readFileSync(path.join(sessions, f), 'utf8')) : [];
      });
      expect(logs.join('\n')).toMatch(/skipped a stream line of \d[\d,]* bytes/);
      const events = await project.journal();
      expect(eventsOf(events, 'session_ended').length).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
