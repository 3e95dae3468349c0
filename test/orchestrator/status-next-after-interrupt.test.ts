/**
 * `debussy status`'s Next line after an interrupted run, when a later phase was marked done with
 * `debussy done --verify` since: the resume is named, from its checkpoint, and the phase marked
 * done is left out of what runs after it. A run in process (interrupted as Ctrl-C interrupts it,
 * by its AbortController), then done and status as the commands print them. Status read from a
 * second process while a run is live stays in test/e2e/live-status.test.ts.
 */
import { describe, expect, it } from 'vitest';
import doneCommand from '../../src/cli/commands/done.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { LoopProject, script, type ScriptStep, touch, useLoopStateDir } from '../support/in-process-run.js';
import { commandStdout, statusOutput } from '../support/loop-output.js';

useLoopStateDir();

describe('debussy status after an interrupted run', () => {
  it('Next leaves out a phase marked done with --verify since', async () => {
    const project = LoopProject.create([{ id: '1', title: 'First' }, { id: '2', title: 'Second' }, { id: '3', title: 'Third' }], { git: true });
    try {
      const interrupt = new AbortController();
      const ctrlC: ScriptStep = { tool: 'Bash', input: { command: '(sleep 20)' }, run: () => interrupt.abort() };
      const out = await project.run([script({ call: 20_000 }, touch('a.txt', 'a\n'), ctrlC, { hang: true })], { interrupt });
      expect(out.exitCode).toBe(EXIT_CODES.interrupted.code);

      let code: number | undefined;
      const marked = await commandStdout(project.dir, async () => (code = await doneCommand({ phase: '2', status: 'completed', verify: true, plan: project.planPath })), { withStderr: true });
      expect(code, marked).toBe(0);
      expect(await statusOutput(project.dir)).toMatch(/Next: `debussy run plans\/e2e\/MASTER_PLAN\.md` resumes phase 1 from its checkpoint \(restarts 0, retries 0 carried over\), then runs 3\n/);
    } finally {
      project.cleanup();
    }
  });
});
