/**
 * Issue 22: a gate command that holds a password. The run records the plan's fingerprint with the
 * command redacted; the next run and `debussy status` compare it with the plan as written. An
 * unedited plan is not reported as changed (else every run re-verified its completed phases), and
 * neither status nor the run shows the password, whether or not the gate was edited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, scriptBySession } from './session-script.js';

const PASSWORD = 'Hunter2-gate-pass-0417';
const GATE = { name: 'db', command: `DB_PASSWORD=${PASSWORD} sh -c 'test -n "$DB_PASSWORD"'` };

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('a gate command with a password', () => {
  it('an unedited plan is not reported as changed; an edited one is, and neither shows the password', async () => {
    let sessions = 0;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Gated', gates: [GATE] }],
      script: (req) => {
        if (assistantTurns(req) === 0) sessions += 1;
        return scriptBySession({ fresh: [bash('debussy done --phase 1'), done()] })(req);
      },
    });
    const p = project;
    const first = await p.run(['run', p.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(0);

    const status = await p.run(['status']);
    expect(status.stdout).not.toContain('The plan changed');
    const statusJson = JSON.parse((await p.run(['status', '--json'])).stdout) as { planChanges: unknown[] };
    expect(statusJson.planChanges).toEqual([]);
    const again = await p.run(['run', p.planArg]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).not.toContain('plan changed');
    expect(eventsOf(await p.journal(), 'baseline_result')).toHaveLength(0);
    expect(eventsOf(await p.journal(), 'plan_changed')).toHaveLength(0);

    // Edited: named, and the phase verified again, still without the password.
    const phaseFile = 'plans/e2e/phase-1.md';
    p.write(phaseFile, p.read(phaseFile).replace('sh -c', 'sh -ec'));
    await p.git('commit', '-qam', 'gate edited');
    const edited = await p.run(['status']);
    expect(edited.stdout).toContain('The plan changed since this run started:');
    expect(edited.stdout).toContain('gate db changed');
    const editedJson = (await p.run(['status', '--json'])).stdout;
    expect(editedJson).toContain('gates_changed');
    const third = await p.run(['run', p.planArg]);
    expect(third.code, third.stdout + third.stderr).toBe(0);
    expect(third.stdout).toContain('gate db changed');
    expect(sessions).toBe(1);
    for (const [place, text] of [['status', status.stdout + edited.stdout], ['status --json', editedJson], ['runs', first.stdout + again.stdout + third.stdout]] as const) {
      expect(text, place).not.toContain(PASSWORD.slice(0, 10));
    }
  });
});
