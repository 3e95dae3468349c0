/**
 * Issue "nothing stranded": a run whose reader goes away (`debussy run … | head -1`, a pager quit,
 * `--json | head -1`) carries on. Through a real shell pipe into `head -1`, the built debussy and
 * the real claude against the scripted server: debussy's writes fail with EPIPE once head has
 * exited; the run must still finish its phase, commit, write run_ended and exit with its own code.
 * One real run, with stdout and stderr down the pipe; the plain and --json reporters writing into
 * a closed pipe during a run are shown in process (test/report/closed-pipe-run.test.ts).
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { E2EProject, eventsOf } from '../e2e/e2e-project.js';
import { bash, scriptBySession, write } from '../e2e/session-script.js';
import { outputEnv } from './output-env.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

interface PipedRun {
  /** debussy's own exit code (bash's PIPESTATUS[0]). */
  code: number;
  /** What head printed: debussy's first line. */
  firstLine: string;
  /** debussy's stderr, when it was not sent down the pipe too. */
  stderr: string;
}

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** `debussy ARGS | head -1` in bash (`2>&1` first with `bothStreams`); resolves with debussy's exit code. */
function runIntoHead(p: E2EProject, args: string[], options: { bothStreams?: boolean } = {}): Promise<PipedRun> {
  const command = [process.execPath, DEBUSSY_BIN, ...args].map(quote).join(' ');
  const script = `${command}${options.bothStreams === true ? ' 2>&1' : ''} | head -1; exit "\${PIPESTATUS[0]}"`;
  const child = spawn('bash', ['-c', script], { cwd: p.dir, env: outputEnv(p, { CI: 'true' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let firstLine = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (firstLine += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, firstLine, stderr })));
}

/** A phase of several steps, so debussy writes for seconds after head has gone. */
function steadyProject(): Promise<E2EProject> {
  return E2EProject.create({
    phases: [{ id: '1', title: 'Nobody reads' }],
    script: scriptBySession({
      fresh: [write('work.txt', 'the work\n'), bash('(sleep 1)'), bash('echo more >> work.txt'), bash('debussy done --phase 1'), { kind: 'text', text: 'Phase finished.' }],
    }),
  });
}

async function expectCompletedRun(p: E2EProject, run: PipedRun): Promise<void> {
  const events = await p.journal();
  expect(eventsOf(events, 'run_ended'), `${run.stderr}\n${JSON.stringify(events.slice(-4))}`).toMatchObject([{ status: 'completed', exitCode: 0 }]);
  expect(run.code, run.stderr).toBe(0);
  expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
  expect(await p.git('show', '--name-only', '--format=', 'HEAD')).toBe('work.txt\n');
  expect(p.read('work.txt')).toBe('the work\nmore\n');
  expect(run.stderr).not.toMatch(/stopped by the user|interrupted by the user|received: stopping/);
}

describe('a run whose output pipe is closed', () => {
  it('`debussy run PLAN 2>&1 | head -1`, both streams down the closed pipe, completes the phase, commits it and exits 0', async () => {
    project = await steadyProject();
    const run = await runIntoHead(project, ['run', project.planArg], { bothStreams: true });
    expect(run.firstLine.split('\n').filter((line) => line !== '')).toHaveLength(1);
    await expectCompletedRun(project, run);
  });
});
