/**
 * Issue 12: closing the terminal under a live run (a real hang-up: the pty is gone) is a stop like
 * Ctrl-C. Writes to the vanished terminal fail (EIO); debussy ignores that, commits the session's
 * work as a checkpoint, records the run as interrupted and releases the lock.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { E2EProject, eventsOf } from '../e2e/e2e-project.js';
import { livePids, waitFor } from '../e2e/processes.js';
import { isProcessAlive } from '../../src/process/identity.js';
import { lockPath } from '../../src/state/index.js';
import { bash, scriptBySession, write } from '../e2e/session-script.js';
import { outputEnv } from './output-env.js';
import { hasTmux, TmuxScreen } from './tmux-screen.js';

let project: E2EProject | undefined;
let screen: TmuxScreen | undefined;
afterEach(async () => {
  await screen?.dispose();
  screen = undefined;
  await project?.dispose();
  project = undefined;
});

describe.runIf(hasTmux())('closing the terminal under a live run', () => {
  it('commits the checkpoint, records the run as interrupted and releases the lock', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Hang up on me' }],
      script: scriptBySession({ fresh: [write('wip.txt', 'work in progress\n'), bash('(sleep 24)'), bash('debussy done --phase 1'), { kind: 'text', text: 'Phase finished.' }] }),
    });
    screen = await TmuxScreen.start({
      command: [process.execPath, DEBUSSY_BIN, 'run', project.planArg], cwd: project.dir, env: outputEnv(project, {}), width: 100, height: 30,
    });
    await waitFor('the agent to run sleep 24', () => livePids(/^sleep 24$/).length > 0, 45_000);
    const pid = screen.commandPid();
    expect(pid).toBeDefined();
    await screen.hangUp();
    await waitFor('debussy to end after the hang-up', () => !isProcessAlive(pid ?? -1), 30_000);

    const events = await project.journal();
    expect(eventsOf(events, 'run_ended'), JSON.stringify(events.slice(-5))).toMatchObject([{ status: 'interrupted', exitCode: 130 }]);
    const commit = eventsOf(events, 'commit').find((c) => c.purpose === 'interrupted');
    expect(commit).toBeDefined();
    expect(await project.git('show', '--name-only', '--format=', commit?.sha ?? 'HEAD')).toContain('wip.txt');
    expect(existsSync(lockPath(project.dir))).toBe(false);
    expect(livePids(/^sleep 24$/)).toEqual([]);
    // It ends as a hang-up ends a program, 128 + SIGHUP, once its state is saved (Node 20 itself
    // would abort in its exit, restoring the vanished terminal: 134; nodejs/node#58200).
    expect(await screen.waitForExit(10_000)).toBe(129);
  });
});
