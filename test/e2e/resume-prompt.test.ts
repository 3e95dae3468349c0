/**
 * Issue 11, "Resume and restart carry everything": after Ctrl-C, the first prompt of the resumed
 * run holds what the interrupted run recorded (progress entries, the last activity, the phase's
 * commits) and says rightly whether the work is committed or still in the working tree. Through
 * the built debussy, the real claude CLI and the scripted server.
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

async function interruptDuring(sleep: string, config: Record<string, unknown> = {}): Promise<E2EProject> {
  const p = await E2EProject.create({ phases: [{ id: '1', title: 'Interrupted' }], script: interruptedPhase(sleep), config });
  project = p;
  const first = p.start(['run', p.planArg]);
  const pattern = new RegExp(`^${sleep}$`);
  await waitFor(`the agent to run ${sleep}`, () => livePids(pattern).length > 0);
  first.child.kill('SIGINT');
  const interrupted = await first.done;
  expect(interrupted.code, interrupted.stdout + interrupted.stderr).toBe(130);
  return p;
}

function resumedPrompt(p: E2EProject): string {
  const request = p.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint');
  return request === undefined ? '' : firstUserText(request);
}

describe('interrupted, then resumed', () => {
  it('the first prompt holds the progress, the last activity and the commits; the work is committed', async () => {
    const p = await interruptDuring('sleep 27');
    const before = await p.journal();
    const commit = eventsOf(before, 'commit').find((c) => c.purpose === 'interrupted');
    expect(commit).toBeDefined();

    const resumed = await p.run(['resume']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const prompt = resumedPrompt(p);
    expect(prompt).toContain('1. wrote part one');
    expect(prompt).toContain('2. started part two');
    expect(prompt).not.toContain('(none recorded');
    expect(prompt).toContain('## What the previous session was doing last');
    expect(prompt).toContain('sleep 27');
    expect(prompt).toContain(commit?.sha.slice(0, 10) ?? 'no commit');
    expect(prompt).toContain('Its work is committed');
    expect(prompt).toContain('part1.txt');
  });

  it('with auto_commit off, the prompt says the work is in the working tree', async () => {
    const p = await interruptDuring('sleep 28', { auto_commit: false });
    expect(eventsOf(await p.journal(), 'commit')).toEqual([]);
    const resumed = await p.run(['run', p.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const prompt = resumedPrompt(p);
    expect(prompt).toContain('1. wrote part one');
    expect(prompt).toContain('sleep 28');
    expect(prompt).toContain('not committed: it is in the working tree');
    expect(prompt).not.toContain('## Commits made in this phase');
  });

  it('after kill -9 of debussy, the last activity is read back from the session log', async () => {
    const p = await E2EProject.create({ phases: [{ id: '1', title: 'Killed' }], script: interruptedPhase('sleep 26') });
    project = p;
    const first = p.start(['run', p.planArg]);
    await waitFor('the agent to run sleep 26', () => livePids(/^sleep 26$/).length > 0);
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
