/**
 * A run that selects some phases (`--only ID`, `--phase ID`) is the latest run of the plan, and the
 * next run resumes from the latest run's journal: completions of earlier runs must come through it,
 * or the next full run starts completed phases again. Through the built debussy, the real claude
 * CLI and the scripted server, with the master plan's Status column left alone (update_plan_status
 * off, the default), so the journals are all that knows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

/** Phases 1 -> 2 -> 3, each agent signalling its own phase; each gate checks the file it writes. */
async function chainProject(): Promise<E2EProject> {
  return E2EProject.create({
    phases: [
      { id: '1', title: 'One', gates: [{ name: 'one', command: 'test -f one.txt' }] },
      { id: '2', title: 'Two', dependsOn: ['1'], gates: [{ name: 'two', command: 'test -f two.txt' }] },
      { id: '3', title: 'Three', dependsOn: ['2'], gates: [{ name: 'three', command: 'test -f three.txt' }] },
    ],
    script: scriptBySession({ fresh: [bash('touch "$(echo $DEBUSSY_PHASE_ID | sed "s/1/one/;s/2/two/;s/3/three/").txt" && debussy done --phase "$DEBUSSY_PHASE_ID"'), done()] }),
    config: { max_retries: 0, regression_gates: 'off' },
  });
}

/** The phases each session of the newest run worked on, and how each of its phases ended. */
async function newestRun(p: E2EProject): Promise<{ sessions: string[]; ended: string[] }> {
  const events = await p.journal();
  return {
    sessions: eventsOf(events, 'session_started').map((event) => event.phaseId),
    ended: eventsOf(events, 'phase_ended').map((event) => `${event.phaseId}:${event.status}`),
  };
}

describe('completions survive a run that selects some phases', () => {
  it('--only 1, then --only 2, then a full run: only phase 3 starts a session; 1 and 2 are known complete', async () => {
    project = await chainProject();
    const one = await project.run(['run', project.planArg, '--only', '1']);
    expect(one.code, one.stdout + one.stderr).toBe(0);
    const two = await project.run(['run', project.planArg, '--only', '2']);
    expect(two.code, two.stdout + two.stderr).toBe(0);
    expect((await newestRun(project)).sessions).toEqual(['2']);
    // Run --only 2 records what it knew of phase 1, saying it did not run it.
    expect((await newestRun(project)).ended).toEqual(['1:completed', '2:completed']);
    expect(two.stdout + two.stderr).toMatch(/phase 1 completed: not selected by this run; completed in run \S+/);

    const dry = JSON.parse((await project.run(['run', '--dry-run', '--json', project.planArg])).stdout) as { phases: { id: string; action: string }[] };
    expect(dry.phases.map((phase) => `${phase.id}:${phase.action}`)).toEqual(['1:skip', '2:skip', '3:run']);

    const full = await project.run(['run', project.planArg]);
    const output = full.stdout + full.stderr;
    expect(full.code, output).toBe(0);
    expect(output).toMatch(/phase 1 already complete \(completed in run \S+\): skipped/);
    expect((await newestRun(project)).sessions).toEqual(['3']);
    expect((await newestRun(project)).ended).toEqual(['1:completed', '2:completed', '3:completed']);
  });

  it('--only 1, then --phase 2 (which runs 2 and 3), then a full run: nothing runs again', async () => {
    project = await chainProject();
    expect((await project.run(['run', project.planArg, '--only', '1'])).code).toBe(0);
    const from2 = await project.run(['run', project.planArg, '--phase', '2']);
    expect(from2.code, from2.stdout + from2.stderr).toBe(0);
    expect((await newestRun(project)).sessions).toEqual(['2', '3']);

    const full = await project.run(['run', project.planArg]);
    expect(full.code, full.stdout + full.stderr).toBe(0);
    expect((await newestRun(project)).sessions).toEqual([]);
  });
});
