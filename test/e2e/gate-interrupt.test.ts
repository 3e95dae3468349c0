/**
 * Issue 12 (interruptions): a gate or a git hook that a debussy killed with kill -9 left running,
 * ended by the next run, through the built debussy and the real claude CLI against the scripted
 * server. Ctrl-C during a gate or a hook, and gates that leave processes behind, are shown in
 * process: test/orchestrator/interrupted-gates-and-hooks.test.ts, test/verification/gates-in-run.test.ts.
 * Each sleep has its own duration so the process checks never see another test's processes.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, write } from './session-script.js';

let project: E2EProject | undefined;
const outside: string[] = [];
afterEach(async () => {
  // A test that failed before the next run ended them must not leave its orphans to the next test.
  for (const pid of livePids(/^sleep 34[34]$/)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  await project?.dispose();
  project = undefined;
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory outside the repository, for flag files that must not be committed. */
function flagDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-flags-'));
  outside.push(dir);
  return dir;
}

const finishes = scriptBySession({
  fresh: [write('wip.txt', 'work in progress\n'), bash('debussy done --phase 1'), done()],
  checkpoint: [bash('debussy done --phase 1'), done()],
});

function installHook(p: E2EProject, name: string, body: string): void {
  const hook = path.join(p.dir, '.git', 'hooks', name);
  writeFileSync(hook, `#!/bin/sh\n${body}\n`);
  chmodSync(hook, 0o755);
}

describe('kill -9 of debussy', () => {
  it('the next run ends a gate the dead run left running', async () => {
    const flags = flagDir();
    const gate = `test -f ${flags}/ran && exit 0; touch ${flags}/ran; sleep 343`;
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Killed while verifying', gates: [{ name: 'slow', command: gate }] }], script: finishes });
    const first = project.start(['run', project.planArg]);
    await waitFor('the gate to run sleep 343', () => livePids(/^sleep 343$/).length > 0, 45_000);
    first.child.kill('SIGKILL');
    await first.done;
    expect(livePids(/^sleep 343$/).length).toBeGreaterThan(0); // the orphan is really there

    const next = await project.run(['run', project.planArg]);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.stdout).toMatch(/ended \d+ process\(es\)/);
    expect(livePids(/^sleep 343$/)).toEqual([]);
  });

  it('the next run ends a git commit whose hook hung, and its hook; no index lock is left', async () => {
    const flags = flagDir();
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Killed while committing' }], script: finishes });
    installHook(project, 'pre-commit', `test -f ${flags}/ran && exit 0; touch ${flags}/ran; sleep 344`);
    const first = project.start(['run', project.planArg]);
    await waitFor('the hook to run sleep 344', () => livePids(/^sleep 344$/).length > 0, 45_000);
    first.child.kill('SIGKILL');
    await first.done;
    expect(livePids(/^sleep 344$/).length).toBeGreaterThan(0);
    // The commit's folder in the temporary directory (a copy of the index, the paths committed),
    // named by the debussy that made it.
    const commitFolders = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith(`debussy-commit-${first.child.pid}-`));
    expect(commitFolders().length).toBeGreaterThan(0);

    const next = await project.run(['run', project.planArg]);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(livePids(/^sleep 344$/)).toEqual([]);
    expect(commitFolders()).toEqual([]);
    expect(existsSync(path.join(project.dir, '.git', 'index.lock'))).toBe(false);
    // The agent's work is never lost: committed, or still in the tree.
    expect(project.read('wip.txt')).toBe('work in progress\n');
  });
});
