/**
 * "Nothing taken on faith", through the built debussy, the real claude CLI and the scripted
 * server: a gate-less phase whose session was refused its tool calls is not completed on the
 * agent's word (exit 7); `debussy done` for a phase the session is not running is answered with
 * the running phase and costs nothing; a gate that failed before the phase and fails on something
 * new after it is the phase's doing, and the remediation prompt says what failed before and what
 * fails now; audit errors of phases a run does not select do not stop it.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, scriptBySession, sessionKind, write, type SessionKind } from './session-script.js';

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

/** What the tools answered, as the model saw it in the request, in order. */
function toolResults(req: RecordedRequest): { text: string; isError: boolean }[] {
  const body = req.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const results: { text: string; isError: boolean }[] = [];
  for (const message of body?.messages ?? []) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; content?: unknown; is_error?: boolean }[]) {
      if (block.type !== 'tool_result') continue;
      const text = typeof block.content === 'string' ? block.content : Array.isArray(block.content) ? (block.content as { text?: string }[]).map((b) => b.text ?? '').join('\n') : '';
      results.push({ text, isError: block.is_error === true });
    }
  }
  return results;
}

describe('a gate-less phase is not completed on the word of a session that was refused', () => {
  it('claude refused the edits and the agent signalled done: exit 7 naming the refused calls, the phase not completed', async () => {
    let dir = '';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'No gates', gates: [] }],
      config: { claude_args: [], permission_mode: 'default', max_retries: 3 },
      script: scriptBySession({ fresh: [write(path.join(dir, 'src', 'x.ts'), 'export const x = 1;\n'), bash('debussy done --phase 1'), done('Done.')] }),
    });
    dir = project.dir;
    const audit = await project.run(['audit', project.planArg]);
    expect(audit.stdout + audit.stderr).toContain("phase 1 has no gates: debussy can only take the agent's word that it is done");

    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(7);
    expect(output).toContain('no gates check this phase, and claude refused 1 tool call (Write: src/x.ts) in the session that signalled it done: allow them with permission_mode / allowed_tools, and give the phase gates');
    const events = await project.journal();
    expect(eventsOf(events, 'session_started')).toHaveLength(1);
    expect(eventsOf(events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'failed' }]);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ exitCode: 7 }]);
    expect(await project.git('log', '--format=%s')).not.toMatch(/phase 1.*complete/i);
  });
});

describe('`debussy done` for a phase the session is not running', () => {
  it('is answered with the running phase, records no signal and spends no reminder or retry', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'First' }, { id: '2', title: 'Second', dependsOn: ['1'] }],
      config: { max_retries: 1 },
      script: scriptByPhase({
        '1': { fresh: [bash('debussy done --phase 1'), done()] },
        '2': { fresh: [bash('debussy done --phase 1'), bash('debussy done --phase 2'), done()] },
      }),
    });
    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(0);

    const phaseTwo = project.api.mainRequests().filter((r) => phaseOf(r) === '2');
    const answers = toolResults(phaseTwo[phaseTwo.length - 1] as RecordedRequest);
    expect(answers[0]?.text).toContain('this session runs phase 2, not phase 1: `debussy done --phase 2` signals it; nothing was recorded');
    expect(answers[0]?.isError).toBe(true);
    expect(answers[1]?.text).toContain('phase 2 signalled completed');

    const events = await project.journal();
    expect(eventsOf(events, 'signal').map((s) => s.phaseId)).toEqual(['1', '2']);
    expect(eventsOf(events, 'session_started')).toHaveLength(2);
    expect(eventsOf(events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'initial']);
    expect(output).not.toContain('continuing the same session once with a reminder');
    expect(eventsOf(events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
  });
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

describe('inherited failures are told apart by what fails', () => {
  it('a gate failing before the phase that fails with a new test failure after it is introduced; the prompt says what failed before and what fails now', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Builds the parser', gates: [{ name: 'tests', command: 'sh run-tests.sh' }] }],
      files: { 'run-tests.sh': `${RUNNER}\n` },
      script: scriptByPhase({
        '1': {
          fresh: [write('parser.js', 'module.exports = () => 1; // buggy\n'), bash('debussy done --phase 1'), done()],
          remediation: [bash("echo 'module.exports = () => 2; // correct' > parser.js"), bash('debussy done --phase 1'), done()],
        },
      }),
    });
    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'baseline_result')).toMatchObject([{ name: 'tests', passed: false }]);
    const gates = eventsOf(events, 'gate_result');
    expect(gates.map((g) => [g.passed, g.inherited === true])).toEqual([[false, false], [true, false]]);
    expect(gates[0]?.failures).toEqual({ by: 'tests', items: ['parser.test.js > parses x'] });
    expect(eventsOf(events, 'baseline_result')[0]?.failures).toEqual({ by: 'lines', items: ["Error: Cannot find module './parser'"] });
    expect(output).not.toContain('inherited: it failed before the phase started too');

    const remediation = firstUserText(project.api.mainRequests().find((r) => sessionKind(r) === 'remediation') as RecordedRequest);
    expect(remediation).not.toMatch(/not caused by this phase|inherited/);
    expect(remediation).toContain('## Gate `tests` failed (exit code 1)');
    expect(remediation).toContain('It failed before this phase started too, but what fails now is new: parser.test.js > parses x');
    expect(remediation).toContain("Before this phase started it failed with: Error: Cannot find module './parser'");
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
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Migrated one' }, { id: '2', title: 'Migrated two' }, { id: '3', title: 'New work' }],
      files: { 'plans/e2e/MASTER_PLAN.md': master, 'plans/e2e/phase-2.md': phaseTwo },
      script: scriptByPhase({ '3': { fresh: [bash('debussy done --phase 3'), done()] } }),
    });
    const audit = await project.run(['audit', project.planArg]);
    expect(audit.code).toBe(1);
    const plain = await project.run(['run', project.planArg]);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toContain('the plan fails the audit with 2 error(s)');

    // --phase 3 first: once phase 3 is done, only --only runs it again.
    const from = await project.run(['run', project.planArg, '--phase', '3']);
    expect(from.code, from.stdout + from.stderr).toBe(0);
    expect(from.stderr).toContain('warning: phase 1: phase file phase-1-gone.md does not exist (an audit error; phase 1 is not selected, so this run goes on)');
    expect(from.stderr).toContain('warning: phase 2: gate "lint" has no command');
    expect(eventsOf(await project.journal(), 'phase_ended')).toMatchObject([{ phaseId: '3', status: 'completed' }]);

    const only = await project.run(['run', project.planArg, '--only', '3']);
    expect(only.code, only.stdout + only.stderr).toBe(0);
    expect(only.stderr).toContain('phase 2 is not selected, so this run goes on');
    expect(eventsOf(await project.journal(), 'session_started')).toHaveLength(1);
  });
});
