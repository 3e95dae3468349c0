/** `debussy logs` through the built binary over run folders written by hand. */
import { spawn } from 'node:child_process';
import { writeFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { acquireRunLock } from '../../src/state/index.js';
import { DEBUSSY_BIN, debussy, expectNoStack, initRepo, tempDir } from '../cli/cli-harness.js';
import { SyntheticRun } from './synthetic-run.js';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  const temp = tempDir('debussy-logs-');
  cleanup = () => temp.cleanup();
  root = realpathSync(temp.dir);
  initRepo(root);
});
afterEach(() => cleanup());

const OLD_RUN = '20261120-100000-aaaa';
const RUN = '20261121-214501-ab12';

/** An older one-session run and a finished run of two phases: a context restart in phase 1, then phase 2. */
function twoRuns(): SyntheticRun {
  const old = new SyntheticRun(root, OLD_RUN, ['1']);
  old.phase('1', 'Old phase');
  old.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['old run line'], outcome: 'completed' });
  old.end();

  const run = new SyntheticRun(root, RUN, ['1', '2']);
  run.phase('1', 'Data model');
  run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['p1 s0 first', 'p1 s0 second'], raw: ['{"type":"system","n":1}'], outcome: 'stopped' });
  run.session({ phaseId: '1', sessionIndex: 1, kind: 'restart', restart: 1, log: ['p1 s1 only'], raw: ['{"type":"system","n":2}', '{"type":"result","n":3}'], outcome: 'completed' });
  run.phase('2', 'API');
  run.session({ phaseId: '2', sessionIndex: 0, kind: 'initial', log: ['p2 s0 only'], raw: ['{"type":"result","n":4}'], outcome: 'completed' });
  run.end();
  return run;
}

describe('debussy logs', () => {
  it('shows the latest run, every session in the order it started, each under its header', async () => {
    twoRuns();
    const result = await debussy(['logs'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Run ${RUN}: Demo (${path.join(root, 'plans/demo/MASTER_PLAN.md')})`);
    const order = lines.filter((line) => line.startsWith('==>') || line.startsWith('p'));
    expect(order).toEqual([
      expect.stringMatching(/^==> phase 1 "Data model" · session 00 · initial · started \S+ · ended stopped, after 1m 15s, peak context 82% <==$/),
      'p1 s0 first',
      'p1 s0 second',
      expect.stringMatching(/^==> phase 1 "Data model" · session 01 · restart 1 · .* · ended completed, after 1m 15s, peak context 82% <==$/),
      'p1 s1 only',
      expect.stringMatching(/^==> phase 2 "API" · session 00 · initial · /),
      'p2 s0 only',
    ]);
    expect(result.stdout).not.toContain('old run line');
  });

  it('shows an older run by its id', async () => {
    twoRuns();
    const result = await debussy(['logs', OLD_RUN], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('old run line');
    expect(result.stdout).not.toContain('p1 s0 first');
  });

  it('--phase keeps only that phase', async () => {
    twoRuns();
    const result = await debussy(['logs', '--phase', '2'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('p2 s0 only');
    expect(result.stdout).not.toMatch(/p1 s|phase 1/);
  });

  it('--raw prints the stream-json alone on stdout, headers on stderr', async () => {
    twoRuns();
    const result = await debussy(['logs', '--raw'], { cwd: root });
    expect(result.code).toBe(0);
    const records = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { n: number });
    expect(records.map((record) => record.n)).toEqual([1, 2, 3, 4]);
    expect(result.stderr.match(/^==> phase/gm)).toHaveLength(3);
  });

  it('--raw --phase 1', async () => {
    twoRuns();
    const result = await debussy(['logs', '--raw', '--phase', '1'], { cwd: root });
    expect(result.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it.each([
    { args: ['logs', 'nope'], error: /no run "nope" in this project/, hint: `Runs, newest first: ${RUN}, ${OLD_RUN}` },
    { args: ['logs', '../../etc'], error: /no run "\.\.\/\.\.\/etc"/, hint: `Runs, newest first: ${RUN}, ${OLD_RUN}` },
    { args: ['logs', '--phase', '9'], error: new RegExp(`run ${RUN} has no phase "9"`), hint: 'Phases: 1, 2' },
    { args: ['logs', OLD_RUN, '--phase', '2'], error: /has no phase "2"/, hint: 'Phases: 1' },
  ])('$args is a usage error listing what exists', async ({ args, error, hint }) => {
    twoRuns();
    const result = await debussy(args, { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(error);
    expect(result.stderr).toContain(hint);
    expect(result.stdout).toBe('');
    expectNoStack(result);
  });

  it('says there is nothing to show in a project without runs', async () => {
    const result = await debussy(['logs'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no runs in this project yet');
    expectNoStack(result);
  });

  it('marks sessions without a log, and shows log files the journal does not know', async () => {
    const run = new SyntheticRun(root, RUN, ['1']);
    run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', outcome: 'crashed' });
    writeFileSync(run.logFile('1', 1), 'from a session the journal lost\n');
    const result = await debussy(['logs'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/==> phase 1 · session 00 · initial · .* ended crashed.* <== \(no log file\)/);
    expect(result.stdout).toContain("==> 1-01.log (not in the run's journal) <==\nfrom a session the journal lost\n");
  });

  it('prints a last line that has no newline yet, and reads the run from any subfolder', async () => {
    const run = new SyntheticRun(root, RUN, ['1']);
    run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['whole'] });
    run.append('1', 0, 'half a li');
    const result = await debussy(['logs'], { cwd: path.join(root, '.debussy') });
    expect(result.stdout).toMatch(/not ended <==\nwhole\nhalf a li\n$/);
  });

  it('shows a log written before debussy made its lines inert without the escapes in it; --raw keeps them as JSON escapes', async () => {
    const run = new SyntheticRun(root, RUN, ['1']);
    run.phase('1', 'Clip\x1b]52;c;ZXZpbA==\x07board');
    const raw = '{"type":"assistant","text":"hi \u009b6n\u202e"}';
    run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['says: red \x1b[31mtext\x1b[0m\x07 and \x1b]52;c;ZXZpbA==\x07 done'], raw: [raw], outcome: 'completed' });
    const text = await debussy(['logs'], { cwd: root });
    expect(text.stdout).toMatch(/==> phase 1 "Clipboard" · session 00 /);
    expect(text.stdout).toContain('\nsays: red text and  done\n');
    const rawOut = await debussy(['logs', '--raw'], { cwd: root });
    expect(rawOut.stdout).toBe('{"type":"assistant","text":"hi \\u009b6n\\u202e"}\n');
    expect(JSON.parse(rawOut.stdout)).toEqual(JSON.parse(raw));
    // eslint-disable-next-line no-control-regex
    for (const out of [text.stdout, text.stderr, rawOut.stdout, rawOut.stderr]) expect(out).not.toMatch(/[\x07\x1b\x7f-\x9f\u202e]/);
  });
});

/** A `debussy logs --follow` child and what it has printed so far. */
function follow(args: string[]) {
  const child = spawn(process.execPath, [DEBUSSY_BIN, 'logs', '--follow', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      if (stdout.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** Resolves once stdout contains `text`; fails if the child exits first. */
    waitFor(text: string): Promise<void> {
      if (stdout.includes(text)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiters.push({ text, resolve });
        // Settling an already resolved promise does nothing, so this only fires if the text never came.
        void exited.then((code) => reject(new Error(`logs --follow exited (${code}) before printing ${JSON.stringify(text)}:\n${stdout}\n${stderr}`)));
      });
    },
  };
}

describe('debussy logs --follow', () => {
  it('prints lines and sessions as they come, and stops when the run releases its lock', async () => {
    const run = new SyntheticRun(root, RUN, ['1', '2']);
    const lock = await acquireRunLock(root, { runId: RUN, planPath: 'plans/demo/MASTER_PLAN.md' });
    onTestFinished(() => lock.release());
    run.phase('1', 'Data model');
    run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['first line'] });

    const follower = follow([]);
    await follower.waitFor('first line\n');
    run.append('1', 0, 'second line\n');
    await follower.waitFor('second line\n');
    run.endSession('1', 0, 'completed');
    run.phase('2', 'API');
    run.session({ phaseId: '2', sessionIndex: 0, kind: 'initial', log: ['phase two line'] });
    await follower.waitFor('phase two line\n');
    run.append('2', 0, 'unfinished');
    await lock.release();

    expect(await follower.exited).toBe(0);
    const { stdout } = follower.output();
    const shown = stdout.split('\n').filter((line) => !line.startsWith('Run ') && line !== '');
    expect(shown).toEqual([
      expect.stringMatching(/^==> phase 1 "Data model" · session 00 · initial · started \S+ · not ended <==$/),
      'first line',
      'second line',
      expect.stringMatching(/^==> phase 2 "API" · session 00 · initial/),
      'phase two line',
      'unfinished',
    ]);
  });

  it('stops when the journal records the end of the run', async () => {
    const run = new SyntheticRun(root, RUN, ['1']);
    const lock = await acquireRunLock(root, { runId: RUN, planPath: 'plans/demo/MASTER_PLAN.md' });
    onTestFinished(() => lock.release());
    run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['working'] });
    const follower = follow(['--phase', '1']);
    await follower.waitFor('working\n');
    run.append('1', 0, 'last words\n');
    run.end();
    expect(await follower.exited).toBe(0);
    expect(follower.output().stdout).toContain('working\nlast words\n');
  });

  it('ends cleanly on Ctrl-C', async () => {
    const run = new SyntheticRun(root, RUN, ['1']);
    const lock = await acquireRunLock(root, { runId: RUN, planPath: 'plans/demo/MASTER_PLAN.md' });
    onTestFinished(() => lock.release());
    run.session({ phaseId: '1', sessionIndex: 0, kind: 'initial', log: ['still running'] });
    const follower = follow([]);
    await follower.waitFor('still running\n');
    follower.child.kill('SIGINT');
    expect(await follower.exited).toBe(0);
    expect(follower.output().stderr).toBe('');
  });

  it('on a run that already ended, prints everything and exits', async () => {
    twoRuns();
    const follower = follow([]);
    expect(await follower.exited).toBe(0);
    expect(follower.output().stdout).toContain('p2 s0 only\n');
  });
});
