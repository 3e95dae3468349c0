/**
 * An interrupt during the end-of-run regression check (regression_gates: end), in process: an
 * unfinished check is a pending check the next run does, and a regression found before stays
 * found. The interrupt is the run's AbortController, aborted once gate one runs in the check; the
 * real Ctrl-C to the binary is test/e2e/interruption.test.ts's. The whole orchestrator (runPlan)
 * with the in-process agent (test/support/in-process-run.ts).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, type LoopOutcome, ofType, type ScriptStep, type SessionScript, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

const REGRESSION = 'regression: gate one of phase 1 fails at the end of the run';

describe('an interrupt during the end-of-run regression check', () => {
  it('an unfinished check is a pending check: the next run checks again, and a regression found before stays found', async () => {
    const flags = mkdtempSync(path.join(tmpdir(), 'debussy-end-check-'));
    /** While it exists, gate one says it started and waits (to be interrupted). */
    const slow = path.join(flags, 'slow');
    const started = path.join(flags, 'started');
    const gate = { name: 'one', command: `if [ -f ${slow} ]; then touch ${started}; sleep 30; fi; test -f one.txt || { echo "one.txt is missing"; exit 1; }` };
    const project = LoopProject.create([
      { id: '1', title: 'Builds one', gates: [gate] },
      { id: '2', title: 'Breaks one', dependsOn: ['1'], gates: [{ name: 'two', command: 'true' }] },
    ], { git: true });
    const removeOne: ScriptStep = { tool: 'Bash', run: (cwd) => rmSync(path.join(cwd, 'one.txt')) };
    // Phase 2 slows gate one down: its own gates are not gate one, the end check's are.
    const slowDown: ScriptStep = { tool: 'Bash', run: () => writeFileSync(slow, '') };
    const sessions: SessionScript = (launch) => /phase 1\b/i.test(launch.prompt)
      ? [{ call: 20_000 }, touch('one.txt', '1\n'), done, success]
      : [{ call: 20_000 }, removeOne, slowDown, done, success];
    /** A run interrupted once gate one runs in the end check. */
    const interruptTheCheck = async (): Promise<LoopOutcome> => {
      const interrupt = new AbortController();
      const watch = setInterval(() => {
        if (existsSync(started)) interrupt.abort();
      }, 20);
      try {
        const out = await project.run([sessions], { interrupt, config: { regression_gates: 'end' } });
        expect(interrupt.signal.aborted).toBe(true);
        expect(out.exitCode).toBe(EXIT_CODES.interrupted.code);
        return out;
      } finally {
        clearInterval(watch);
        rmSync(slow, { force: true });
        rmSync(started, { force: true });
      }
    };
    try {
      // Both phases complete; interrupted while the end check runs gate one, before its verdict.
      const first = await interruptTheCheck();
      expect(ofType(first.events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
      expect(ofType(first.events, 'regression_result')).toEqual([]);
      const second = await project.run([sessions], { config: { regression_gates: 'end' } });
      expect(second.exitCode).toBe(EXIT_CODES.failed.code);
      expect(second.printed).toContain(REGRESSION);
      expect(second.agent.launches).toEqual([]);

      // The regression found, a check run again and interrupted: still found.
      writeFileSync(slow, '');
      await interruptTheCheck();
      const fourth = await project.run([sessions], { config: { regression_gates: 'end' } });
      expect(fourth.exitCode).toBe(EXIT_CODES.failed.code);
      expect(fourth.printed).toContain(REGRESSION);
      expect(fourth.printed).not.toContain('run completed');
    } finally {
      project.cleanup();
      rmSync(flags, { recursive: true, force: true });
    }
  });
});
