/**
 * Issue 4 acceptance: debussy never trusts the claim. Gates re-run by debussy, remediation,
 * blocked, a session that forgets to signal, dependency failures, --phase/--only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, lastUserText, scriptBySession, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

const FIXED_GATE = { name: 'fixed', command: 'test -f fixed.txt || { echo "fixed.txt is missing"; exit 1; }' };

describe('gate verification and remediation', () => {
  it('a failing gate after a completed signal gets a remediation session that names the gate and its output; then the phase completes', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Gated', gates: [FIXED_GATE, { name: 'always', command: 'echo fine' }] }],
      script: scriptBySession({
        fresh: [bash('debussy done --phase 1'), done()],
        remediation: [write('fixed.txt', 'ok\n'), bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const remediation = project.api.mainRequests().find((r) => sessionKind(r) === 'remediation');
    expect(remediation).toBeDefined();
    const prompt = firstUserText(remediation as RecordedRequest);
    expect(prompt).toContain('Gate `fixed` failed (exit code 1)');
    expect(prompt).toContain('fixed.txt is missing');
    expect(prompt).not.toContain('Gate `always`');
    const events = await project.journal();
    const gates = eventsOf(events, 'gate_result');
    expect(gates.map((g) => [g.name, g.passed])).toEqual([['fixed', false], ['always', true], ['fixed', true], ['always', true]]);
    expect(gates[0]?.outputTail).toContain('fixed.txt is missing');
    expect(eventsOf(events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'remediation']);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });

  it('a missing notes file is sent back to the agent even when the gates pass', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Notes', notes: true }],
      config: { notes_sections: ['Summary'] },
      script: scriptBySession({
        fresh: [bash('debussy done --phase 1'), done()],
        remediation: [write('notes/NOTES_1.md', '# Notes\n\nno summary heading\n'), bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const remediation = project.api.mainRequests().find((r) => sessionKind(r) === 'remediation');
    expect(firstUserText(remediation as RecordedRequest)).toContain('the notes file notes/NOTES_1.md that the phase must write does not exist');
    expect(result.stdout).toContain('notes/NOTES_1.md has no "Summary" section');
  });
});

describe('blocked and unsignalled sessions', () => {
  it('blocked stops the run with its own exit code and the reason shows in debussy status', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Needs a person' }, { id: '2', title: 'Later', dependsOn: ['1'] }],
      script: scriptBySession({ fresh: [bash('debussy done --phase 1 --status blocked --reason "need the staging API key"'), done()] }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code).toBe(5);
    const status = await project.run(['status']);
    expect(status.stdout).toContain('need the staging API key');
    expect(status.stdout).toMatch(/Status: blocked/);
    const json = JSON.parse((await project.run(['status', '--json'])).stdout) as { run: { phases: Record<string, { status: string; reason?: string }> } };
    expect(json.run.phases['1']).toMatchObject({ status: 'blocked', reason: 'need the staging API key' });
  });

  it('a session that ends without a signal is resumed once with a reminder', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Forgetful' }],
      script: scriptBySession({ fresh: [write('a.txt', 'a\n'), done('All done, I think.')], reminder: [bash('debussy done --phase 1'), done()] }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const reminded = project.api.mainRequests().filter((r) => lastUserText(r).includes('ended without signalling'));
    expect(reminded).toHaveLength(1);
    // --resume re-sends the earlier conversation: the reminder comes after it.
    expect(assistantTurns(reminded[0] as RecordedRequest)).toBeGreaterThanOrEqual(2);
    const events = await project.journal();
    expect(eventsOf(events, 'session_started')).toHaveLength(2);
    expect(eventsOf(events, 'attempt_started')).toHaveLength(1);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });

  it('a signal from an earlier attempt is not taken for the current one', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Stale signal', gates: [FIXED_GATE] }],
      config: { max_retries: 1 },
      script: scriptBySession({ fresh: [bash('debussy done --phase 1'), done()], remediation: [write('fixed.txt', 'x\n'), done('fixed it')], reminder: [done('still thinking')] }),
    });
    const result = await project.run(['run', project.planArg]);
    // The remediation session fixed the file but never signalled: its attempt must not borrow
    // the first attempt's signal, so the phase ends failed after the reminder and no retries.
    expect(result.code).toBe(1);
    const events = await project.journal();
    expect(eventsOf(events, 'gate_result').filter((g) => g.passed)).toHaveLength(0);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'failed' }]);
  });
});

function phaseOf(req: RecordedRequest): string | undefined {
  return /You are executing phase (\S+)/.exec(firstUserText(req))?.[1];
}

describe('dependencies and order', () => {
  // A failed phase skipping its dependents, and a gate that keeps failing: test/orchestrator/run-loop.test.ts (in process).
  it('--phase refuses while its dependencies are incomplete; --only runs one phase', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Base' }, { id: '2', title: 'Top', dependsOn: ['1'] }],
      script: (req) => [bash(`debussy done --phase ${phaseOf(req) ?? '?'}`), done()][assistantTurns(req)] ?? done(),
    });
    const refused = await project.run(['run', project.planArg, '--phase', '2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--phase 2: its dependencies are not complete: 1');
    const unknown = await project.run(['run', project.planArg, '--only', '9']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Valid phase ids: 1, 2');
    const only = await project.run(['run', project.planArg, '--only', '2']);
    expect(only.code, only.stdout + only.stderr).toBe(0);
    expect(project.api.mainRequests().map(phaseOf)).toEqual(['2', '2']);
  });
});
