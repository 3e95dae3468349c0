/**
 * The agent's `debussy` shim and the run's inbox, for real: the shim is the sh script a session
 * gets, run as a child process; the inbox answers in this process, as `debussy run` does. A fake
 * node in front of the real one records every time the shim had to start node.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignalInbox } from '../../src/agent-signals/signal-inbox.js';
import { shimScript } from '../../src/agent-signals/shim-script.js';
import { appendEvent, journalPath } from '../../src/state/index.js';
import { runCommand, type CliResult } from '../cli/cli-harness.js';

const ENTRY = path.resolve(import.meta.dirname, '../../bin/debussy.js');
const RUN_ID = '20261122-120000-inbx';

let dir: string;
let journal: string;
let nodeStarts: string;
let fakeNode: string;
let inbox: SignalInbox | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-inbox-'));
  journal = journalPath(dir, RUN_ID);
  appendEvent(journal, { type: 'run_started', runId: RUN_ID, planPath: path.join(dir, 'MASTER_PLAN.md'), planName: 'Inbox', phaseIds: ['1', '2'], options: {} });
  nodeStarts = path.join(dir, 'node-starts.txt');
  writeFileSync(nodeStarts, '');
  fakeNode = path.join(dir, 'fake-node');
  writeFileSync(fakeNode, `#!/bin/sh\necho "$*" >> '${nodeStarts}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(fakeNode, 0o755);
});

afterEach(() => {
  inbox?.close();
  inbox = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function writeShim(runPid = process.pid): string {
  const shim = path.join(dir, 'debussy');
  writeFileSync(shim, shimScript({ node: fakeNode, entry: ENTRY, inbox: path.join(dir, 'inbox'), runPid }));
  chmodSync(shim, 0o755);
  return shim;
}

function startInbox(): SignalInbox {
  inbox = new SignalInbox(path.join(dir, 'inbox'), { ...process.env, SERVICE_TOKEN: 'tok-0123456789abcdef' }).start();
  return inbox;
}

const sessionEnv = (attempt = '1-a1') => ({ ...process.env, DEBUSSY_PROJECT_ROOT: dir, DEBUSSY_RUN_ID: RUN_ID, DEBUSSY_ATTEMPT_ID: attempt, SERVICE_TOKEN: 'tok-0123456789abcdef' });

function runShim(shim: string, args: string[], env: NodeJS.ProcessEnv = sessionEnv()): Promise<CliResult> {
  return runCommand(shim, args, { cwd: dir, env });
}

function events(): Record<string, unknown>[] {
  return readFileSync(journal, 'utf8').split('\n').filter(Boolean).slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
}

const starts = () => readFileSync(nodeStarts, 'utf8').split('\n').filter(Boolean);

describe('the agent debussy shim with a running inbox', () => {
  it('answers done and progress in process: recorded once, the usual line printed, no node started', async () => {
    startInbox();
    const shim = writeShim();
    const progress = await runShim(shim, ['progress', '--phase', '1', '--message', "it's half done; token=tok-0123456789abcdef"]);
    expect(progress).toEqual({ code: 0, stdout: 'debussy: progress recorded for phase 1\n', stderr: '' });
    const done = await runShim(shim, ['done', '--phase=2', '--status', 'blocked']);
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('debussy: phase 2 signalled blocked; debussy verifies its gates before accepting it\n');
    expect(done.stderr).toContain('--status blocked without --reason');
    expect(events().map(({ type, phaseId, attemptId, message, status }) => ({ type, phaseId, attemptId, message, status }))).toEqual([
      { type: 'progress', phaseId: '1', attemptId: '1-a1', message: "it's half done; token=[REDACTED:SERVICE_TOKEN]", status: undefined },
      { type: 'signal', phaseId: '2', attemptId: '1-a1', message: undefined, status: 'blocked' },
    ]);
    expect(starts()).toEqual([]);
    // Nothing left behind in the inbox.
    expect(readdirSync(path.join(dir, 'inbox'))).toEqual([]);
  });

  it('keeps arguments exact: quotes, newlines, dollar signs and a leading space', async () => {
    startInbox();
    const message = ` line one "quoted" $HOME \\n\nline two\t'single'`;
    const result = await runShim(writeShim(), ['progress', '--phase', '1', '--message', message]);
    expect(result.code).toBe(0);
    expect(events()[0]).toMatchObject({ message: message.trim() });
    expect(starts()).toEqual([]);
  });

  it('passes what it does not handle to the full CLI, which explains it; nothing recorded', async () => {
    startInbox();
    const shim = writeShim();
    const unknown = await runShim(shim, ['progress', '--phase', '9', '--message', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown phase "9"');
    const help = await runShim(shim, ['status', '--help']);
    expect(help.code).toBe(0);
    expect(starts()).toHaveLength(2);
    expect(events()).toEqual([]);
  });

  it('never takes the answer a killed shim with the same PID left behind for its own', async () => {
    startInbox();
    const shim = writeShim();
    // The shim names its call by its PID: a wrapper leaves a stale answer under its own PID, then
    // becomes the shim (exec keeps the PID).
    const wrapper = path.join(dir, 'stale-then-shim');
    const inboxDir = path.join(dir, 'inbox');
    writeFileSync(wrapper, `#!/bin/sh\nprintf '7\\n' > '${inboxDir}'/$$.code\nprintf 'stale answer\\n' > '${inboxDir}'/$$.out\n: > '${inboxDir}'/$$.err\nexec '${shim}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    const result = await runShim(wrapper, ['progress', '--phase', '1', '--message', 'after a crash']);
    expect(result).toEqual({ code: 0, stdout: 'debussy: progress recorded for phase 1\n', stderr: '' });
    expect(events().map((e) => e.message)).toEqual(['after a crash']);
    expect(readdirSync(inboxDir)).toEqual([]);
  });

  it('answers a call for a phase the session is not running with the running phase; nothing recorded, no node started', async () => {
    startInbox();
    const result = await runShim(writeShim(), ['done', '--phase', '1'], { ...sessionEnv(), DEBUSSY_PHASE_ID: '2' });
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'debussy: this session runs phase 2, not phase 1: `debussy done --phase 2` signals it; nothing was recorded\n' });
    expect(events()).toEqual([]);
    expect(starts()).toEqual([]);
    const own = await runShim(writeShim(), ['done', '--phase', '2'], { ...sessionEnv(), DEBUSSY_PHASE_ID: '2' });
    expect(own.code).toBe(0);
    expect(events()).toEqual([expect.objectContaining({ type: 'signal', phaseId: '2' })]);
  });

  it('answers ten calls at once, each exactly once', async () => {
    startInbox();
    const shim = writeShim();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => runShim(shim, ['progress', '--phase', '1', '--message', `step ${i}`], sessionEnv(`1-a${i}`))));
    expect(results.every((r) => r.code === 0)).toBe(true);
    expect(events().map((e) => e.message).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `step ${i}`).sort());
    expect(starts()).toEqual([]);
  });
});

describe('the agent debussy shim without an answering run', () => {
  it('after the inbox is closed, runs debussy itself and the call is still recorded once', async () => {
    startInbox().close();
    const result = await runShim(writeShim(), ['progress', '--phase', '1', '--message', 'late']);
    expect(result.code).toBe(0);
    expect(events()).toHaveLength(1);
    expect(starts()).toHaveLength(1);
  });

  it('when the run is dead, takes its call back at once and runs debussy itself', async () => {
    // An inbox directory nobody answers (debussy was killed), and the PID of an ended process.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('close', resolve));
    const shim = writeShim(dead.pid);
    mkdirSync(path.join(dir, 'inbox'));
    const started = Date.now();
    const result = await runShim(shim, ['done', '--phase', '1']);
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000); // not the ten-second wait for a live run
    expect(events()).toEqual([expect.objectContaining({ type: 'signal', phaseId: '1', attemptId: '1-a1' })]);
    expect(starts()).toHaveLength(1);
    expect(readdirSync(path.join(dir, 'inbox'))).toEqual([]);
  });

  it('outside a session (no run variables) is plain debussy', async () => {
    startInbox();
    const env = { ...process.env };
    for (const key of ['DEBUSSY_PROJECT_ROOT', 'DEBUSSY_RUN_ID', 'DEBUSSY_ATTEMPT_ID']) delete env[key];
    const result = await runShim(writeShim(), ['--version'], env);
    expect(result.code).toBe(0);
    expect(starts()).toHaveLength(1);
    expect(existsSync(path.join(dir, 'inbox'))).toBe(true);
  });
});
