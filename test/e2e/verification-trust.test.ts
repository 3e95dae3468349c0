/**
 * Issue 17 acceptance, through the built debussy, the real claude CLI and the scripted server:
 * a gate failing before the phase is reported as inherited; a phase that breaks an earlier phase's
 * gate is caught (regression_gates each and end); editing a completed phase's gate between runs
 * makes the next run verify it again, naming the change; a journal from a newer debussy is named.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, sessionKind, write, type SessionKind } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

function phaseOf(req: RecordedRequest): string {
  return /You are executing phase (\S+)/.exec(firstUserText(req))?.[1] ?? '?';
}

/** Turns per phase and session kind. */
function scriptByPhase(turns: Record<string, Partial<Record<SessionKind, ScriptedTurn[]>>>) {
  return (req: RecordedRequest): ScriptedTurn => turns[phaseOf(req)]?.[sessionKind(req)]?.[assistantTurns(req)] ?? done();
}

const ONE_GATE = { name: 'one', command: 'test -f one.txt || { echo "one.txt is missing"; exit 1; }' };

describe('baselines: inherited failures', () => {
  it('a gate failing before the phase is reported as inherited, in the journal, the output and the remediation prompt', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Inherits', gates: [ONE_GATE, { name: 'fine', command: 'true' }] }],
      script: scriptByPhase({ '1': { fresh: [bash('debussy done --phase 1'), done()], remediation: [write('one.txt', '1\n'), bash('debussy done --phase 1'), done()] } }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'baseline_result').map((b) => [b.name, b.passed])).toEqual([['one', false], ['fine', true]]);
    // The baseline comes before the phase's first session.
    expect(events.findIndex((e) => e.type === 'baseline_result')).toBeLessThan(events.findIndex((e) => e.type === 'session_started'));
    expect(eventsOf(events, 'gate_result').map((g) => [g.name, g.passed, g.inherited === true])).toEqual([['one', false, true], ['fine', true, false], ['one', true, false], ['fine', true, false]]);
    expect(result.stdout).toContain('gate one FAILED (exit 1; inherited: it failed before the phase started too)');
    const remediation = project.api.mainRequests().find((r) => sessionKind(r) === 'remediation');
    expect(firstUserText(remediation as RecordedRequest)).toContain('## Gate `one` failed (exit code 1)\nIt failed before this phase started too, with the same failures');
    expect(firstUserText(remediation as RecordedRequest)).not.toContain('not caused by this phase');
  });

  it('inherited_failures: warn completes the phase with a warning and no remediation session', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Legacy lint', gates: [ONE_GATE] }],
      config: { inherited_failures: 'warn' },
      script: scriptByPhase({ '1': { fresh: [bash('debussy done --phase 1'), done()] } }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('gate one fails as it did before the phase started (inherited; accepted: inherited_failures is warn)');
    expect(project.api.mainRequests().filter((r) => sessionKind(r) === 'remediation')).toHaveLength(0);
  });
});

describe('regressions: a phase that breaks an earlier phase\'s gate', () => {
  const phases = [
    { id: '1', title: 'Builds one', gates: [ONE_GATE] },
    { id: '2', title: 'Breaks one', dependsOn: ['1'], gates: [{ name: 'two', command: 'true' }] },
  ];
  const phaseOneWorks = { fresh: [write('one.txt', '1\n'), bash('debussy done --phase 1'), done()] };

  it('regression_gates: each sends the breaking phase back to remediation with the broken gate\'s output', async () => {
    project = await E2EProject.create({
      phases, config: { regression_gates: 'each' },
      script: scriptByPhase({
        '1': phaseOneWorks,
        '2': { fresh: [bash('rm one.txt'), bash('debussy done --phase 2'), done()], remediation: [write('one.txt', 'back\n'), bash('debussy done --phase 2'), done()] },
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'regression_result').map((r) => [r.phaseId, r.name, r.passed, r.mode, r.afterPhaseId])).toEqual([['1', 'one', false, 'each', '2'], ['1', 'one', true, 'each', '2']]);
    const remediation = project.api.mainRequests().find((r) => sessionKind(r) === 'remediation' && phaseOf(r) === '2');
    const prompt = firstUserText(remediation as RecordedRequest);
    expect(prompt).toContain('## Gate `one` of phase 1 (completed earlier) now fails (exit code 1)');
    expect(prompt).toContain('one.txt is missing');
    expect(result.stdout).toContain('the phase broke earlier gate(s) one of phase 1: remediation 1/2');
    expect(result.stdout).toContain('regression gates: 1 of 2 passed');
  });

  it('regression_gates: end (the default) ends the run naming the broken gate and the phase since', async () => {
    project = await E2EProject.create({
      phases,
      script: scriptByPhase({ '1': phaseOneWorks, '2': { fresh: [bash('rm one.txt'), bash('debussy done --phase 2'), done()] } }),
    });
    const result = await project.run(['run', project.planArg, '--json']);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const events = await project.journal();
    expect(eventsOf(events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
    expect(eventsOf(events, 'regression_result').map((r) => [r.phaseId, r.name, r.passed, r.mode, r.suspects])).toEqual([['1', 'one', false, 'end', ['2']]]);
    const ended = eventsOf(events, 'run_ended')[0];
    expect(ended?.reason).toContain('regression: gate one of phase 1 fails at the end of the run (it passed when phase 1 completed); phase 2, the only phase completed since, broke it');
    const summary = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; regressions?: unknown[] }).find((e) => e.type === 'run_summary');
    expect(summary?.regressions).toEqual([{ phaseId: '1', name: 'one', command: ONE_GATE.command, passed: false, mode: 'end', suspects: ['2'] }]);

    const status = await project.run(['status']);
    expect(status.stdout).toContain('regression gates: 0 of 1 passed');
    expect(status.stdout).toContain('Next: fix what broke gate(s) one of phase 1 (regression check above), then `debussy run plans/e2e/MASTER_PLAN.md` checks them again');
    // Running again without a fix runs no phase, but checks again: the regression does not turn green by itself.
    const sessions = project.api.mainRequests().length;
    const again = await project.run(['run', project.planArg]);
    expect(again.code, again.stdout + again.stderr).toBe(1);
    expect(again.stdout).toContain('regression: gate one of phase 1 fails at the end of the run (it passed when phase 1 completed); phase 2, the only phase completed since, broke it');
    expect(project.api.mainRequests()).toHaveLength(sessions);
    project.write('one.txt', 'fixed by hand\n');
    await project.git('add', 'one.txt');
    await project.git('commit', '-qm', 'fix one');
    const fixed = await project.run(['run', project.planArg]);
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'regression_result').map((r) => [r.name, r.passed])).toEqual([['one', true], ['two', true]]);
  });
});

describe('plans that change between runs', () => {
  it('editing a completed phase\'s gate names the change and verifies the phase again; --trust-completed keeps it; status shows it', async () => {
    let sessions = 0;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Gated', gates: [{ name: 'check', command: 'true' }] }],
      script: (req) => {
        if (assistantTurns(req) === 0) sessions += 1;
        return scriptByPhase({ '1': { fresh: [write('two.txt', '2\n'), bash('debussy done --phase 1'), done()] } })(req);
      },
    });
    const p = project;
    const first = await p.run(['run', p.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(sessions).toBe(1);
    const phaseFile = 'plans/e2e/phase-1.md';
    const editGate = async (command: string) => {
      p.write(phaseFile, p.read(phaseFile).replace(/\(command: `[^`]*`\)/, `(command: \`${command}\`)`));
      await p.git('commit', '-qam', `gate: ${command}`);
    };

    // A gate that passes on the tree as it is: verified again without a session.
    await editGate('test -f two.txt');
    const status = await p.run(['status']);
    expect(status.stdout).toContain('The plan changed since this run started:');
    expect(status.stdout).toContain('phase 1: gate check changed: `true` -> `test -f two.txt`');
    const statusJson = JSON.parse((await p.run(['status', '--json'])).stdout) as { planChanges: unknown[] };
    expect(statusJson.planChanges).toEqual([{ kind: 'gates_changed', id: '1', added: [], removed: [], changed: [{ name: 'check', from: 'true', to: 'test -f two.txt' }] }]);
    const dry = JSON.parse((await p.run(['run', p.planArg, '--dry-run', '--json'])).stdout) as { phases: { id: string; action: string; note: string }[]; planChanges: string[] };
    expect(dry.phases).toMatchObject([{ id: '1', action: 'verify', note: 'verify again: its gates changed since it completed' }]);
    expect(dry.planChanges[0]).toBe('phase 1: gate check changed: `true` -> `test -f two.txt`');
    const second = await p.run(['run', p.planArg]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain('the plan changed since run');
    expect(second.stdout).toContain('phase 1: gate check changed: `true` -> `test -f two.txt`');
    expect(second.stdout).toContain('phase 1: its gates changed since it completed: its gates run again before it counts as done');
    expect(sessions).toBe(1);
    const secondEvents = await p.journal();
    expect(eventsOf(secondEvents, 'baseline_result').map((b) => [b.name, b.passed, b.reverify])).toEqual([['check', true, true]]);
    expect(eventsOf(secondEvents, 'phase_ended')[0]?.reason).toContain('verified again (its gates changed since it completed): every gate passes');

    // --trust-completed: the change is named, the phase stays done, nothing runs.
    await editGate('test -f three.txt');
    const trusted = await p.run(['run', p.planArg, '--trust-completed']);
    expect(trusted.code, trusted.stdout + trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain('phase 1: its gates changed; still taken as done (--trust-completed)');
    expect(eventsOf(await p.journal(), 'baseline_result')).toHaveLength(0);
    expect(sessions).toBe(1);

    // A gate that fails now: the phase runs again.
    await editGate('test -f four.txt || { echo "four.txt is missing"; exit 1; }');
    const third = await p.run(['run', p.planArg, '--max-retries', '0']);
    expect(sessions).toBe(2);
    const thirdEvents = await p.journal();
    expect(eventsOf(thirdEvents, 'baseline_result').map((b) => [b.name, b.passed, b.reverify])).toEqual([['check', false, true]]);
    expect(third.stdout).toContain('gate(s) check fail now, so the phase runs again');
    expect(eventsOf(thirdEvents, 'session_started')).toHaveLength(1);
  });

  it('a journal from a newer debussy is named in one line, exit 3, and nothing starts', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Once' }], script: scriptByPhase({ '1': { fresh: [bash('debussy done --phase 1'), done()] } }) });
    const p = project;
    expect((await p.run(['run', p.planArg])).code).toBe(0);
    const runs = path.join(p.dir, '.debussy/runs');
    const [runId] = readdirSync(runs).filter((name) => !name.startsWith('.'));
    const journal = path.join(runs, runId ?? '', 'journal.ndjson');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/"v":1,/g, '"v":99,'));
    const refused = await p.run(['run', p.planArg]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`run ${runId ?? ''} was recorded by a newer debussy (journal version 99; this one reads up to 1): what it recorded cannot be carried over`);
    expect(refused.stderr).toContain('--fresh');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(runs).filter((name) => !name.startsWith('.'))).toEqual([runId]);
    const status = await p.run(['status']);
    expect(status.stdout).toContain('shown as far as this debussy understands it');
  });
});
