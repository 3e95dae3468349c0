/** The agent's debussy and its inbox, put back when something deletes them, or the reason they cannot be. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SignalInbox } from '../../src/agent-signals/signal-inbox.js';
import { LiveRunFiles } from '../../src/orchestrator/live-run-files.js';

const dirs: string[] = [];
const inboxes: SignalInbox[] = [];
afterEach(() => {
  for (const inbox of inboxes.splice(0)) inbox.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function liveDir(): { live: string; files: LiveRunFiles } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'debussy-live-'));
  dirs.push(base);
  const live = path.join(base, 'debussy', 'runs', 'r1');
  const inbox = new SignalInbox(path.join(live, 'inbox'), {}, () => {}).start();
  inboxes.push(inbox);
  return { live, files: LiveRunFiles.write(path.join(live, 'bin'), inbox) };
}

describe('LiveRunFiles', () => {
  it('holds while nothing changed', () => {
    const { files } = liveDir();
    expect(files.keep()).toBe('held');
  });

  it('puts back the shim, session-env.sh and the inbox after `rm -rf` of the live directory', () => {
    const { live, files } = liveDir();
    const shim = readFileSync(path.join(live, 'bin', 'debussy'), 'utf8');
    rmSync(path.dirname(path.dirname(live)), { recursive: true, force: true });
    expect(files.keep()).toBe('restored');
    expect(readFileSync(path.join(live, 'bin', 'debussy'), 'utf8')).toBe(shim);
    expect(existsSync(path.join(live, 'bin', 'session-env.sh'))).toBe(true);
    expect(existsSync(path.join(live, 'inbox'))).toBe(true);
    expect(files.keep()).toBe('held');
  });

  it('puts back a shim the agent replaced', () => {
    const { live, files } = liveDir();
    writeFileSync(path.join(live, 'bin', 'debussy'), '#!/bin/sh\nexit 0\n');
    expect(files.keep()).toBe('restored');
    expect(readFileSync(path.join(live, 'bin', 'debussy'), 'utf8')).toContain('inbox=');
  });

  it('says why when they cannot be written back (a file where the directory was)', () => {
    const { live, files } = liveDir();
    const debussyDir = path.dirname(path.dirname(live));
    rmSync(debussyDir, { recursive: true, force: true });
    writeFileSync(debussyDir, 'not a directory');
    expect(files.keep()).toEqual({ lost: expect.stringMatching(/ENOTDIR|EEXIST/) as unknown });
  });
});
