/**
 * Issue 11, "Resume and restart carry everything", through the built debussy, the real claude CLI
 * and the scripted server: after kill -9 of debussy (nothing recorded the session's end), the next
 * run ends the orphaned tool shell and its first prompt holds the progress entries and the last
 * activity, read back from the real session log, and says the work is still in the working tree.
 * The same prompt after an interrupt (committed, or in the tree with auto_commit off) is shown in
 * process: test/orchestrator/resume-prompt-after-interrupt.test.ts.
 */
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

const interruptedPhase = (sleep: string) =>
  scriptBySession({
    fresh: [
      write('part1.txt', 'part one\n'),
      bash('debussy progress --phase 1 --message "wrote part one"'),
      bash('debussy progress --phase 1 --message "started part two"'),
      bash(`(${sleep})`),
      done(),
    ],
    checkpoint: [bash('debussy done --phase 1'), done()],
  });

function resumedPrompt(p: E2EProject): string {
  const request = p.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint');
  return request === undefined ? '' : firstUserText(request);
}

describe('interrupted, then resumed', () => {
  it('after kill -9 of debussy, the last activity is read back from the session log', async () => {
    const p = await E2EProject.create({ phases: [{ id: '1', title: 'Killed' }], script: interruptedPhase('sleep 26') });
    project = p;
    const first = p.start(['run', p.planArg]);
    await waitFor('the agent to run sleep 26', () => livePids(/^sleep 26$/).length > 0);
    // The tool runs as soon as claude streams its call; debussy may read that line a moment later
    // under load, and the prompt can only hold what the log holds when debussy dies.
    await waitFor('the session log to show the sleep', () => /\(sleep 26\)/.test(p.sessionLogs()));
    first.child.kill('SIGKILL');
    await first.done;
    expect(eventsOf(await p.journal(), 'session_ended')).toEqual([]); // nothing recorded the session's end

    const resumed = await p.run(['run', p.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(livePids(/^sleep 26$/)).toEqual([]);
    const prompt = resumedPrompt(p);
    expect(prompt).toContain('1. wrote part one');
    expect(prompt).toContain('2. started part two');
    expect(prompt).toMatch(/## What the previous session was doing last\n(- .*\n)*- Bash: \(sleep 26\)/);
    expect(prompt).toContain('Its work is not committed: it is in the working tree (1 file differs from the last commit)');
  });
});
