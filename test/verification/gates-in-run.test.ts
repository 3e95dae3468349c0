/**
 * Gates that leave processes behind, in a whole run (runPlan with the in-process agent): the
 * verdict the journal keeps and the run's exit, with the gates' real shells. How a gate's shell,
 * group and setsid descendants are ended is runGateCommand's (run-gates.test.ts). Each sleep has its
 * own duration so the process checks never see another test's processes.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { livePids } from '../e2e/processes.js';
import { done, LoopProject, type LoopOutcome, ofType, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

const finishes = script({ call: 20_000 }, touch('wip.txt'), done, success);

async function runWithGate(name: string, command: string): Promise<LoopOutcome> {
  const project = LoopProject.create([{ id: '1', title: 'Gated', gates: [{ name, command }] }]);
  try {
    return await project.run([finishes], { config: { gate_timeout: 1000, max_retries: 0 } });
  } finally {
    project.cleanup();
  }
}

describe.concurrent('gates that leave processes behind, in a run', () => {
  it('a gate whose shell exits 0 passes at once with its output, its background child ended', async () => {
    const out = await runWithGate('bg', 'sleep 3457 & echo started');
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(out.events, 'gate_result')).toMatchObject([{ name: 'bg', passed: true, exitCode: 0, outputTail: 'started' }]);
    expect(livePids(/^sleep 3457$/)).toEqual([]);
  });

  it('the timeout ends the whole gate, descendants that left its group with setsid included, and fails the phase', async () => {
    const out = await runWithGate('escape', 'setsid sleep 3467 & sleep 3477');
    expect(out.exitCode).toBe(EXIT_CODES.failed.code);
    expect(out.exitCode).toBe(1);
    const [gate] = ofType(out.events, 'gate_result');
    expect(gate).toMatchObject({ name: 'escape', passed: false });
    expect(gate?.outputTail).toContain('gate timed out after 1 s');
    expect(livePids(/^sleep 34[67]7$/)).toEqual([]);
  });
});
