/**
 * "Nothing taken on faith", through the whole orchestrator in process
 * (test/support/in-process-run.ts): `debussy done` for a phase the session is not running is
 * answered with the running phase and costs nothing; a gate that failed before the phase and fails
 * on something new after it is the phase's doing, and the remediation prompt says what failed
 * before and what fails now; audit errors of phases a run does not select do not stop it; a
 * gate-less phase is named by the audit. That claude's refused tool calls keep a gate-less phase
 * from completing needs the real CLI: test/e2e/taken-on-faith.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/index.js';
import { DebussyError, EXIT_CODES } from '../../src/errors/index.js';
import { loadAuditedPlan } from '../../src/orchestrator/preflight.js';
import { auditPlan } from '../../src/plan/index.js';
import { REMEDIATION_HEADING } from '../../src/prompt/remediation-prompt.js';
import { done, LoopProject, ofType, script, type SessionScript, sessionsOf, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { printedRun } from '../support/loop-output.js';

useLoopStateDir();

describe.concurrent('nothing taken on faith', () => {
  it('`debussy done` for a phase the session is not running is answered with the running phase, records no signal and spends no reminder or retry', async () => {
    const project = LoopProject.create([{ id: '1', title: 'First' }, { id: '2', title: 'Second', dependsOn: ['1'] }]);
    try {
      const scripts: SessionScript[] = [
        script({ call: 20_000 }, done, success),
        script({ call: 20_000 }, { done: 'completed', phase: '1' }, { done: 'completed' }, success),
      ];
      const out = await project.run(scripts, { config: { max_retries: 1 } });
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);

      const [, wrong, right] = out.agent.signalAnswers;
      expect(`${wrong?.stdout ?? ''}${wrong?.stderr ?? ''}`).toContain('this session runs phase 2, not phase 1: `debussy done --phase 2` signals it; nothing was recorded');
      expect(wrong?.code).not.toBe(0);
      expect(`${right?.stdout ?? ''}${right?.stderr ?? ''}`).toContain('phase 2 signalled completed');
      expect(right?.code).toBe(0);

      expect(ofType(out.events, 'signal').map((s) => s.phaseId)).toEqual(['1', '2']);
      expect(sessionsOf(out.events)).toBe(2);
      expect(ofType(out.events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'initial']);
      expect(printedRun(out)).not.toContain('continuing the same session once with a reminder');
      expect(ofType(out.events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
    } finally {
      project.cleanup();
    }
  });

  // A test runner stand-in: before the phase the module is missing; with a buggy parser one test
  // fails; with a correct one, all pass.
  const RUNNER = [
    'if [ ! -f parser.js ]; then echo "Error: Cannot find module \'./parser\'"; exit 1; fi',
    'if grep -q correct parser.js; then echo " ✓ parser.test.js > parses x"; exit 0; fi',
    'echo " FAIL  parser.test.js > parses x"',
    'echo "AssertionError: expected 1 to be 2"',
    'exit 1',
  ].join('\n');

  it('a gate failing before the phase that fails with a new test failure after it is introduced; the prompt says what failed before and what fails now', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Builds the parser', gates: [{ name: 'tests', command: 'sh run-tests.sh' }] }], { files: { 'run-tests.sh': `${RUNNER}\n` } });
    try {
      const out = await project.run([
        script({ call: 20_000 }, touch('parser.js', 'module.exports = () => 1; // buggy\n'), done, success),
        script({ call: 20_000 }, touch('parser.js', 'module.exports = () => 2; // correct\n'), done, success),
      ]);
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'baseline_result')).toMatchObject([{ name: 'tests', passed: false }]);
      const gates = ofType(out.events, 'gate_result');
      expect(gates.map((g) => [g.passed, g.inherited === true])).toEqual([[false, false], [true, false]]);
      expect(gates[0]?.failures).toEqual({ by: 'tests', items: ['parser.test.js > parses x'] });
      expect(ofType(out.events, 'baseline_result')[0]?.failures).toEqual({ by: 'lines', items: ["Error: Cannot find module './parser'"] });
      expect(printedRun(out)).not.toContain('inherited: it failed before the phase started too');

      const remediation = out.agent.launches[1]?.prompt ?? '';
      expect(remediation.startsWith(REMEDIATION_HEADING)).toBe(true);
      expect(remediation).not.toMatch(/not caused by this phase|inherited/);
      expect(remediation).toContain('## Gate `tests` failed (exit code 1)');
      expect(remediation).toContain('It failed before this phase started too, but what fails now is new: parser.test.js > parses x');
      expect(remediation).toContain("Before this phase started it failed with: Error: Cannot find module './parser'");
    } finally {
      project.cleanup();
    }
  });

  it('a phase without gates is named by the audit: debussy can only take the agent\'s word', async () => {
    const project = LoopProject.create([{ id: '1', title: 'No gates', gates: [] }]);
    try {
      const report = await auditPlan(path.join(project.dir, project.planPath));
      expect(report.findings.map((f) => f.message)).toContainEqual(expect.stringContaining("phase 1 has no gates: debussy can only take the agent's word that it is done"));
    } finally {
      project.cleanup();
    }
  });
});

describe('audit errors of phases the run does not select', () => {
  const master = [
    '# E2E Plan - Master Plan', '',
    '| Phase | Title | Status | Depends On |', '|---|---|---|---|',
    '| 1 | [Migrated one](phase-1-gone.md) | Completed | - |',
    '| 2 | [Migrated two](phase-2.md) | Completed | 1 |',
    '| 3 | [New work](phase-3.md) | Pending | 2 |', '',
  ].join('\n');
  const phaseTwo = ['# Phase 2: Migrated two', '', '**Status:** Completed', '', '## Tasks', '- [x] 2.1: done', '', '## Gates', '- lint: passes', ''].join('\n');

  it('are warnings for --only and --phase; the selected phase runs; a plain run and the audit still refuse', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Migrated one' }, { id: '2', title: 'Migrated two' }, { id: '3', title: 'New work' }], {
      files: { 'plans/e2e/MASTER_PLAN.md': master, 'plans/e2e/phase-2.md': phaseTwo },
    });
    try {
      const planPath = path.join(project.dir, project.planPath);
      const config = defaultConfig();
      // As `debussy run` checks the plan before it starts anything (cli/commands/run.ts), and `debussy audit` reports it.
      expect((await auditPlan(planPath)).findings.filter((f) => f.severity === 'error')).toHaveLength(2);
      const plain = await loadAuditedPlan(planPath, config, project.dir).then(() => undefined, (error: unknown) => error);
      if (!(plain instanceof DebussyError)) throw new Error(`expected a refusal, got ${String(plain)}`);
      expect(plain.exitCode).toBe(EXIT_CODES.prerequisites.code);
      expect(plain.message).toContain('the plan fails the audit with 2 error(s)');

      // --phase 3 first: once phase 3 is done, only --only runs it again.
      const from = await loadAuditedPlan(planPath, config, project.dir, { startAt: '3' });
      expect(from.warnings).toContainEqual(expect.stringContaining('warning: phase 1: phase file phase-1-gone.md does not exist (an audit error; phase 1 is not selected, so this run goes on)'));
      expect(from.warnings).toContainEqual(expect.stringContaining('warning: phase 2: gate "lint" has no command'));
      const fromRun = await project.run([script({ call: 20_000 }, done, success)], { startAt: '3' });
      expect(fromRun.exitCode, fromRun.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(fromRun.events, 'phase_ended')).toMatchObject([{ phaseId: '3', status: 'completed' }]);

      const only = await loadAuditedPlan(planPath, config, project.dir, { only: '3' });
      expect(only.warnings.join('\n')).toContain('phase 2 is not selected, so this run goes on');
      const onlyRun = await project.run([script({ call: 20_000 }, done, success)], { only: '3' });
      expect(onlyRun.exitCode, onlyRun.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(sessionsOf(onlyRun.events)).toBe(1);
    } finally {
      project.cleanup();
    }
  });
});
