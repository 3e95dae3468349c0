/**
 * Issue 17 acceptance, through the whole orchestrator in process (test/support/in-process-run.ts):
 * a gate failing before the phase is reported as inherited; a phase that breaks an earlier phase's
 * gate is caught (regression_gates each and end); editing a completed phase's gate between runs
 * makes the next run verify it again, naming the change (in the run's output, `debussy status` and
 * the dry run); a journal from a newer debussy is refused and named. What the user reads is
 * rendered by debussy's own reporter and status command (test/support/loop-output.ts).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDryRun, renderDryRunJson } from '../../src/cli/dry-run.js';
import { defaultConfig } from '../../src/config/index.js';
import { DebussyError, EXIT_CODES } from '../../src/errors/index.js';
import { parsePlan } from '../../src/plan/index.js';
import { REMEDIATION_HEADING } from '../../src/prompt/remediation-prompt.js';
import { summarizeRun } from '../../src/report/run-summary.js';
import { done, FAST, LoopProject, ofType, type ScriptStep, type SessionScript, sessionsOf, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { printedRun, statusOutput } from '../support/loop-output.js';

useLoopStateDir();

type Kind = 'fresh' | 'remediation';
/** Each session plays its phase's steps for its kind (a remediation session's prompt opens with the remediation heading); by default it signals done. */
const byPhase = (steps: Record<string, Partial<Record<Kind, ScriptStep[]>>>): SessionScript => (launch) => {
  const kind: Kind = launch.prompt.startsWith(REMEDIATION_HEADING) ? 'remediation' : 'fresh';
  return [{ call: 20_000 }, ...(steps[launch.env.DEBUSSY_PHASE_ID ?? '']?.[kind] ?? [done]), success];
};
const kinds = (launches: readonly { prompt: string }[]): Kind[] => launches.map((launch) => (launch.prompt.startsWith(REMEDIATION_HEADING) ? 'remediation' : 'fresh'));

const ONE_GATE = { name: 'one', command: 'test -f one.txt || { echo "one.txt is missing"; exit 1; }' };
/** The gate's output in a remediation prompt (the command holds the same words). */
const ONE_MISSING_OUTPUT = 'Last output:\n```\none.txt is missing';

describe.concurrent('baselines: inherited failures', () => {
  it('a gate failing before the phase is reported as inherited, in the journal, the output and the remediation prompt', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Inherits', gates: [ONE_GATE, { name: 'fine', command: 'true' }] }]);
    try {
      const out = await project.run([byPhase({ '1': { remediation: [touch('one.txt', '1\n'), done] } })]);
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'baseline_result').map((b) => [b.name, b.passed])).toEqual([['one', false], ['fine', true]]);
      // The baseline comes before the phase's first session.
      expect(out.events.findIndex((e) => e.type === 'baseline_result')).toBeLessThan(out.events.findIndex((e) => e.type === 'session_started'));
      expect(ofType(out.events, 'gate_result').map((g) => [g.name, g.passed, g.inherited === true])).toEqual([['one', false, true], ['fine', true, false], ['one', true, false], ['fine', true, false]]);
      expect(printedRun(out)).toContain('gate one FAILED (exit 1; inherited: it failed before the phase started too)');
      expect(kinds(out.agent.launches)).toEqual(['fresh', 'remediation']);
      const remediation = out.agent.launches[1]?.prompt ?? '';
      expect(remediation).toContain('## Gate `one` failed (exit code 1)\nIt failed before this phase started too, with the same failures');
      expect(remediation).not.toContain('not caused by this phase');
    } finally {
      project.cleanup();
    }
  });

  it('inherited_failures: warn completes the phase with a warning and no remediation session', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Legacy lint', gates: [ONE_GATE] }]);
    try {
      const out = await project.run([byPhase({})], { config: { inherited_failures: 'warn' } });
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(printedRun(out)).toContain('gate one fails as it did before the phase started (inherited; accepted: inherited_failures is warn)');
      expect(kinds(out.agent.launches)).toEqual(['fresh']);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    } finally {
      project.cleanup();
    }
  });
});

describe.concurrent("regressions: a phase that breaks an earlier phase's gate", () => {
  const phases = [
    { id: '1', title: 'Builds one', gates: [ONE_GATE] },
    { id: '2', title: 'Breaks one', dependsOn: ['1'], gates: [{ name: 'two', command: 'true' }] },
  ];
  const rmOne: ScriptStep = { tool: 'Bash', input: { command: 'rm one.txt' }, run: (cwd) => rmSync(path.join(cwd, 'one.txt')) };
  const phaseOneWorks = { fresh: [touch('one.txt', '1\n'), done] };

  it("regression_gates: each sends the breaking phase back to remediation with the broken gate's output", async () => {
    const project = LoopProject.create(phases);
    try {
      const out = await project.run([byPhase({ '1': phaseOneWorks, '2': { fresh: [rmOne, done], remediation: [touch('one.txt', 'back\n'), done] } })], { config: { regression_gates: 'each' } });
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'regression_result').map((r) => [r.phaseId, r.name, r.passed, r.mode, r.afterPhaseId])).toEqual([['1', 'one', false, 'each', '2'], ['1', 'one', true, 'each', '2']]);
      const remediation = out.agent.launches.find((launch) => launch.env.DEBUSSY_PHASE_ID === '2' && launch.prompt.startsWith(REMEDIATION_HEADING))?.prompt ?? '';
      expect(remediation).toContain('## Gate `one` of phase 1 (completed earlier) now fails (exit code 1)');
      expect(remediation).toContain(ONE_MISSING_OUTPUT);
      const printed = printedRun(out);
      expect(printed).toContain('the phase broke earlier gate(s) one of phase 1: remediation 1/2');
      expect(printed).toContain('regression gates: 1 of 2 passed');
    } finally {
      project.cleanup();
    }
  });

  it('regression_gates: end (the default) ends the run naming the broken gate and the phase since; a run again checks again; a fix passes', async () => {
    const project = LoopProject.create(phases, { git: true });
    try {
      const out = await project.run([byPhase({ '1': phaseOneWorks, '2': { fresh: [rmOne, done] } })]);
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.failed.code);
      expect(ofType(out.events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
      expect(ofType(out.events, 'regression_result').map((r) => [r.phaseId, r.name, r.passed, r.mode, r.suspects])).toEqual([['1', 'one', false, 'end', ['2']]]);
      const broke = 'regression: gate one of phase 1 fails at the end of the run (it passed when phase 1 completed); phase 2, the only phase completed since, broke it';
      expect(ofType(out.events, 'run_ended')[0]?.reason).toContain(broke);
      // What --json's run_summary carries (report/json-reporter.ts).
      expect(summarizeRun(out.state).regressions).toEqual([{ phaseId: '1', name: 'one', command: ONE_GATE.command, passed: false, mode: 'end', suspects: ['2'] }]);

      const status = await statusOutput(project.dir);
      expect(status).toContain('regression gates: 0 of 1 passed');
      expect(status).toContain('Next: fix what broke gate(s) one of phase 1 (regression check above), then `debussy run plans/e2e/MASTER_PLAN.md` checks them again');
      // Running again without a fix runs no phase, but checks again: the regression does not turn green by itself.
      const again = await project.run([byPhase({})]);
      expect(again.exitCode).toBe(EXIT_CODES.failed.code);
      expect(printedRun(again)).toContain(broke);
      expect(again.agent.launches).toHaveLength(0);
      project.write('one.txt', 'fixed by hand\n');
      project.git('add', 'one.txt');
      project.git('commit', '-qm', 'fix one');
      const fixed = await project.run([byPhase({})]);
      expect(fixed.exitCode, fixed.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(fixed.events, 'regression_result').map((r) => [r.name, r.passed])).toEqual([['one', true], ['two', true]]);
    } finally {
      project.cleanup();
    }
  });
});

describe.concurrent('plans that change between runs', () => {
  it("editing a completed phase's gate names the change and verifies the phase again; --trust-completed keeps it; status and the dry run show it", async () => {
    const project = LoopProject.create([{ id: '1', title: 'Gated', gates: [{ name: 'check', command: 'true' }] }], { git: true });
    try {
      const works = byPhase({ '1': { fresh: [touch('two.txt', '2\n'), done] } });
      const first = await project.run([works]);
      expect(first.exitCode, first.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(first.agent.launches).toHaveLength(1);
      const phaseFile = 'plans/e2e/phase-1.md';
      const editGate = (command: string) => {
        project.write(phaseFile, readFileSync(path.join(project.dir, phaseFile), 'utf8').replace(/\(command: `[^`]*`\)/, `(command: \`${command}\`)`));
        project.git('commit', '-qam', `gate: ${command}`);
      };

      // A gate that passes on the tree as it is: verified again without a session.
      editGate('test -f two.txt');
      const status = await statusOutput(project.dir);
      expect(status).toContain('The plan changed since this run started:');
      expect(status).toContain('phase 1: gate check changed: `true` -> `test -f two.txt`');
      const statusJson = JSON.parse(await statusOutput(project.dir, { json: true })) as { planChanges: unknown[] };
      expect(statusJson.planChanges).toEqual([{ kind: 'gates_changed', id: '1', added: [], removed: [], changed: [{ name: 'check', from: 'true', to: 'test -f two.txt' }] }]);
      const { plan } = await parsePlan(path.join(project.dir, project.planPath));
      if (plan === undefined) throw new Error('the plan did not parse');
      const dry = JSON.parse(renderDryRunJson(await describeDryRun(project.dir, plan, { ...defaultConfig(), ...FAST }))) as { phases: { id: string; action: string; note: string }[]; planChanges: string[] };
      expect(dry.phases).toMatchObject([{ id: '1', action: 'verify', note: 'verify again: its gates changed since it completed' }]);
      expect(dry.planChanges[0]).toBe('phase 1: gate check changed: `true` -> `test -f two.txt`');
      const second = await project.run([works]);
      expect(second.exitCode, second.notices.join('\n')).toBe(EXIT_CODES.success.code);
      const printed = printedRun(second);
      expect(printed).toContain('the plan changed since run');
      expect(printed).toContain('phase 1: gate check changed: `true` -> `test -f two.txt`');
      expect(printed).toContain('phase 1: its gates changed since it completed: its gates run again before it counts as done');
      expect(second.agent.launches).toHaveLength(0);
      expect(ofType(second.events, 'baseline_result').map((b) => [b.name, b.passed, b.reverify])).toEqual([['check', true, true]]);
      expect(ofType(second.events, 'phase_ended')[0]?.reason).toContain('verified again (its gates changed since it completed): every gate passes');

      // --trust-completed: the change is named, the phase stays done, nothing runs.
      editGate('test -f three.txt');
      const trusted = await project.run([works], { trustCompleted: true });
      expect(trusted.exitCode, trusted.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(printedRun(trusted)).toContain('phase 1: its gates changed; still taken as done (--trust-completed)');
      expect(ofType(trusted.events, 'baseline_result')).toHaveLength(0);
      expect(trusted.agent.launches).toHaveLength(0);

      // A gate that fails now: the phase runs again.
      editGate('test -f four.txt || { echo "four.txt is missing"; exit 1; }');
      const third = await project.run([works], { config: { max_retries: 0 } });
      expect(third.agent.launches).toHaveLength(1);
      expect(ofType(third.events, 'baseline_result').map((b) => [b.name, b.passed, b.reverify])).toEqual([['check', false, true]]);
      expect(printedRun(third)).toContain('gate(s) check fail now, so the phase runs again');
      expect(sessionsOf(third.events)).toBe(1);
    } finally {
      project.cleanup();
    }
  });

  it('a journal from a newer debussy is refused naming it and the way out, and nothing starts; status shows it as far as it understands', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Once' }]);
    try {
      const { runId } = await project.run([byPhase({})]);
      const runs = path.join(project.dir, '.debussy/runs');
      const journal = path.join(runs, runId, 'journal.ndjson');
      writeFileSync(journal, readFileSync(journal, 'utf8').replace(/"v":1,/g, '"v":99,'));
      const refused = await project.run([byPhase({})]).then(() => undefined, (error: unknown) => error);
      if (!(refused instanceof DebussyError)) throw new Error(`expected a refusal, got ${String(refused)}`);
      expect(refused.exitCode).toBe(EXIT_CODES.prerequisites.code);
      expect(refused.message).toContain(`run ${runId} was recorded by a newer debussy (journal version 99; this one reads up to 1): what it recorded cannot be carried over`);
      expect(`${refused.message} ${refused.hint ?? ''}`).toContain('--fresh');
      expect(readdirSync(runs).filter((name) => !name.startsWith('.'))).toEqual([runId]);
      expect(await statusOutput(project.dir)).toContain('shown as far as this debussy understands it');
    } finally {
      project.cleanup();
    }
  });
});
