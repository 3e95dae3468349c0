/**
 * Issue 4 acceptance, through the whole orchestrator in process (test/support/in-process-run.ts):
 * debussy never trusts the claim. Gates re-run by debussy, remediation that names the failing gate
 * and its output, a missing notes file, blocked (and how `debussy status` shows it), a session that
 * forgets to signal, a signal of an earlier attempt, --phase/--only. That a reminder resumes the
 * real claude's conversation stays in test/e2e/verification.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DebussyConfig } from '../../src/config/index.js';
import { DebussyError, EXIT_CODES } from '../../src/errors/index.js';
import type { LoopRunOptions } from '../support/in-process-run.js';
import { done, LoopProject, type LoopOutcome, ofType, script, type SessionScript, sessionsOf, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { printedRun, statusOutput } from '../support/loop-output.js';
import type { PhaseSpec } from '../support/plan-files.js';

useLoopStateDir();

const FIXED_GATE = { name: 'fixed', command: 'test -f fixed.txt || { echo "fixed.txt is missing"; exit 1; }' };

/** One run of a fresh project (a plain folder), then `check` on it before it is removed. */
async function runOnce(phases: PhaseSpec[], scripts: SessionScript[], check: (out: LoopOutcome, project: LoopProject) => Promise<void> | void, options: LoopRunOptions & { config?: Partial<DebussyConfig> } = {}): Promise<void> {
  const project = LoopProject.create(phases);
  try {
    await check(await project.run(scripts, options), project);
  } finally {
    project.cleanup();
  }
}

const phaseOf = (prompt: string | undefined): string | undefined => /You are executing phase (\S+)/.exec(prompt ?? '')?.[1];

/** The DebussyError a run refused with (the CLI prints its message and hint, and exits with its code). */
async function refusal(run: Promise<unknown>): Promise<DebussyError> {
  const error = await run.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof DebussyError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe.concurrent('gate verification and remediation', () => {
  it('a failing gate after a completed signal gets a remediation session that names the gate and its output; then the phase completes', async () => {
    const phases = [{ id: '1', title: 'Gated', gates: [FIXED_GATE, { name: 'always', command: 'echo fine' }] }];
    await runOnce(phases, [script({ call: 20_000 }, done, success), script({ call: 20_000 }, touch('fixed.txt', 'ok\n'), done, success)], (out) => {
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      const prompt = out.agent.launches[1]?.prompt ?? '';
      expect(prompt).toContain('Gate `fixed` failed (exit code 1)');
      // The gate's output, not only its command (which holds the same words).
      expect(prompt).toContain('Last output:\n```\nfixed.txt is missing');
      expect(prompt).not.toContain('Gate `always`');
      const gates = ofType(out.events, 'gate_result');
      expect(gates.map((g) => [g.name, g.passed])).toEqual([['fixed', false], ['always', true], ['fixed', true], ['always', true]]);
      expect(gates[0]?.outputTail).toContain('fixed.txt is missing');
      expect(ofType(out.events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'remediation']);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    });
  });

  it('a missing notes file is sent back to the agent even when the gates pass', async () => {
    const phases = [{ id: '1', title: 'Notes', notes: true }];
    const remediation = script({ call: 20_000 }, touch('notes/NOTES_1.md', '# Notes\n\nno summary heading\n'), done, success);
    await runOnce(phases, [script({ call: 20_000 }, done, success), remediation], (out) => {
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'remediation']);
      expect(out.agent.launches[1]?.prompt).toContain('the notes file notes/NOTES_1.md that the phase must write does not exist');
      expect(printedRun(out)).toContain('notes/NOTES_1.md has no "Summary" section');
    }, { config: { notes_sections: ['Summary'] } });
  });
});

describe.concurrent('blocked and unsignalled sessions', () => {
  it('blocked stops the run with its own exit code and the reason shows in debussy status', async () => {
    const phases = [{ id: '1', title: 'Needs a person' }, { id: '2', title: 'Later', dependsOn: ['1'] }];
    await runOnce(phases, [script({ call: 20_000 }, { done: 'blocked', reason: 'need the staging API key' }, success)], async (out, project) => {
      expect(out.exitCode).toBe(EXIT_CODES.blocked.code);
      expect(EXIT_CODES.blocked.code).toBe(5);
      const status = await statusOutput(project.dir);
      expect(status).toContain('need the staging API key');
      expect(status).toMatch(/Status: blocked/);
      const json = JSON.parse(await statusOutput(project.dir, { json: true })) as { run: { phases: Record<string, { status: string; reason?: string }> } };
      expect(json.run.phases['1']).toMatchObject({ status: 'blocked', reason: 'need the staging API key' });
    });
  });

  it('a session that ends without a signal is continued once, in the same session, with a reminder', async () => {
    await runOnce([{ id: '1', title: 'Forgetful' }], [script({ call: 20_000 }, touch('a.txt', 'a\n'), { end: 'success', text: 'All done, I think.' }), script({ call: 25_000 }, done, success)], (out) => {
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(out.agent.launches.map((launch) => launch.prompt.includes('ended without signalling'))).toEqual([false, true]);
      expect(out.agent.launches[1]?.resumeSessionId).toBe('in-process-1');
      expect(sessionsOf(out.events)).toBe(2);
      expect(ofType(out.events, 'attempt_started')).toHaveLength(1);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    });
  });

  it('a signal from an earlier attempt is not taken for the current one', async () => {
    const phases = [{ id: '1', title: 'Stale signal', gates: [FIXED_GATE] }];
    // The remediation session fixes the file but never signals, nor after the reminder.
    const scripts = [script({ call: 20_000 }, done, success), script({ call: 20_000 }, touch('fixed.txt', 'x\n'), { end: 'success', text: 'fixed it' }), script({ call: 20_000 }, { end: 'success', text: 'still thinking' })];
    await runOnce(phases, scripts, (out) => {
      // Its attempt must not borrow the first attempt's signal: the phase ends failed after the reminder, with no retries.
      expect(out.exitCode).toBe(EXIT_CODES.failed.code);
      expect(sessionsOf(out.events)).toBe(3);
      expect(ofType(out.events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'remediation']);
      expect(ofType(out.events, 'gate_result').filter((g) => g.passed)).toHaveLength(0);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'failed' }]);
    }, { config: { max_retries: 1 } });
  });
});

describe('dependencies and order', () => {
  // A failed phase skipping its dependents, and a gate that keeps failing: test/orchestrator/run-loop.test.ts.
  it('--phase refuses while its dependencies are incomplete; --only of an unknown phase names the valid ones; --only runs one phase', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Base' }, { id: '2', title: 'Top', dependsOn: ['1'] }]);
    try {
      const signal = script({ call: 20_000 }, done, success);
      const refused = await refusal(project.run([signal], { startAt: '2' }));
      expect(refused.exitCode).toBe(EXIT_CODES.usage.code);
      expect(refused.message).toContain('--phase 2: its dependencies are not complete: 1');
      const unknown = await refusal(project.run([signal], { only: '9' }));
      expect(unknown.exitCode).toBe(EXIT_CODES.usage.code);
      expect(unknown.hint).toContain('Valid phase ids: 1, 2');
      const only = await project.run([signal], { only: '2' });
      expect(only.exitCode, only.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(only.agent.launches.map((launch) => phaseOf(launch.prompt))).toEqual(['2']);
    } finally {
      project.cleanup();
    }
  });
});
