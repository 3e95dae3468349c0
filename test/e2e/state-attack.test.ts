/**
 * Issue 12, "state under attack", where the command line or a real stream is the point: a phase
 * marked through another project's plan, the CLI's views of a torn journal, a stream line too long
 * for a string. Through the built binary (and the real claude CLI against the scripted server).
 * The run's own defence of its state (.debussy/ deleted or unwritable during a run, the lock kept,
 * the journal written back or rescued, update_plan_status) is shown in process:
 * test/orchestrator/state-under-attack.test.ts, test/orchestrator/plan-status-commit.test.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession } from './session-script.js';

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
