/**
 * A run whose reader goes away (`debussy run … | head -1`, `--json | head -1`) carries on: a whole
 * run in process whose reporters (those `debussy run` builds, plain or --json) write to a real
 * pipe through the run command's OutputStream, into a reader that takes the first line and closes
 * its end, as head does. The writes after it fail with EPIPE; the run must still finish its phase,
 * commit it and end with its own code. The built binary's own streams into a real `head -1`
 * stay in test/e2e-output/closed-pipe.test.ts.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseReporters } from '../../src/report/choose-reporters.js';
import { createReporters } from '../../src/report/create-reporters.js';
import { OutputStream } from '../../src/report/output-stream.js';
import { combineReporters } from '../../src/report/reporter.js';
import { LoopProject, done, ofType, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

/** A reader that keeps the first line, closes its end of the pipe and stays alive, as `head -1` does. */
const HEAD_1 = `
const fs = require('fs'); let seen = ''; const buf = Buffer.alloc(1);
while (!seen.includes('\\n') && fs.readSync(0, buf, 0, 1, null) === 1) seen += buf.toString('latin1');
fs.closeSync(0); process.stdout.write(seen); setTimeout(() => {}, 20000);`;

async function runIntoHead(json: boolean): Promise<{ firstLine: string; project: LoopProject; exitCode: number; events: Awaited<ReturnType<LoopProject['run']>>['events']; readerGone: boolean }> {
  const reader = spawn(process.execPath, ['-e', HEAD_1], { stdio: ['pipe', 'pipe', 'ignore'] });
  let firstLine = '';
  const gotLine = new Promise<void>((resolve) => reader.stdout.on('data', (chunk: Buffer) => ((firstLine += chunk.toString()), resolve())));
  const stdout = new OutputStream(Object.assign(reader.stdin, { on: reader.stdin.on.bind(reader.stdin), off: reader.stdin.off.bind(reader.stdin) }));
  const choice = chooseReporters({ flags: { plain: false, json, verbose: false }, env: { CI: 'true' }, isTTY: false });
  const reporter = combineReporters(await createReporters(choice, { stdout, warn: () => undefined }));
  const project = LoopProject.create([{ id: '1', title: 'Nobody reads' }], { git: true });
  // Several steps, so the run writes on after the reader has gone.
  const waitForHead: { until: () => Promise<unknown> } = { until: () => gotLine.then(() => new Promise((resolve) => setTimeout(resolve, 100))) };
  const append = { tool: 'Bash', input: { command: 'echo more >> work.txt' }, run: (cwd: string) => appendFileSync(path.join(cwd, 'work.txt'), 'more\n') };
  const out = await project.run([script({ call: 20_000 }, touch('work.txt', 'the work\n'), waitForHead, append, { say: 'more output' }, done, success)], { reporter });
  reporter.close();
  reader.kill();
  return { firstLine, project, exitCode: out.exitCode, events: out.events, readerGone: stdout.readerGone };
}

describe.concurrent('a run whose output pipe is closed', () => {
  it.each([['plain', false], ['--json', true]])('%s: the reader got one line; the phase completes, is committed, and the run ends completed', async (_mode, json) => {
    const { firstLine, project, exitCode, events, readerGone } = await runIntoHead(json);
    try {
      expect(firstLine.split('\n').filter((line) => line !== '')).toHaveLength(1);
      if (json) expect(JSON.parse(firstLine) as unknown).toMatchObject({ type: 'run_started' });
      expect(readerGone).toBe(true);
      expect(ofType(events, 'run_ended')).toMatchObject([{ status: 'completed', exitCode: 0 }]);
      expect(exitCode).toBe(0);
      expect(ofType(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
      expect(project.git('show', '--name-only', '--format=', 'HEAD')).toBe('work.txt\n');
      expect(readFileSync(path.join(project.dir, 'work.txt'), 'utf8')).toBe('the work\nmore\n');
    } finally {
      project.cleanup();
    }
  });
});
