/** The remediation prompt says how each failed gate stands against the baseline, without excusing the phase, and which earlier gates it broke. */
import { describe, expect, it } from 'vitest';
import type { GateOutcome } from '../../src/verification/run-gates.js';
import { buildRemediationPrompt, type FailedGate } from '../../src/prompt/remediation-prompt.js';
import type { BaselineComparison } from '../../src/verification/baseline.js';

const outcome = (name: string, tail: string): GateOutcome => ({ name, command: `run ${name}`, passed: false, exitCode: 1, timedOut: false, interrupted: false, durationMs: 5, outputTail: tail });
const judged = (gate: GateOutcome, vsBaseline: BaselineComparison): FailedGate => ({ ...gate, vsBaseline });
const base = { phaseId: '2', failedGates: [] as FailedGate[], otherProblems: [] as string[], redact: (text: string) => text };

describe('buildRemediationPrompt', () => {
  it('without a baseline it reads as before: each failed gate with its output', () => {
    const prompt = buildRemediationPrompt({ ...base, failedGates: [outcome('tests', '1 failed')] }, 'PHASE');
    expect(prompt).toContain('## Gate `tests` failed (exit code 1)\nCommand: `run tests`\nLast output:\n```\n1 failed\n```');
    expect(prompt).not.toContain('inherited');
    expect(prompt.endsWith('---\n\nPHASE')).toBe(true);
  });

  it('says of each gate how it stands against the baseline, never that a failure is not the phase\'s', () => {
    const prompt = buildRemediationPrompt({
      ...base,
      failedGates: [judged(outcome('unit', '1 failed'), { kind: 'passed_before' }), judged(outcome('new', 'x'), { kind: 'not_run_before' })],
      inheritedGates: [judged(outcome('lint', '3 problems'), { kind: 'same' })],
    }, 'PHASE');
    expect(prompt).toContain("## Gate `unit` failed (exit code 1)\nIt passed before this phase started: this phase's changes made it fail.\nCommand: `run unit`");
    expect(prompt).toContain('## Gate `new` failed (exit code 1)\nCommand: `run new`');
    expect(prompt).toContain("## Gate `lint` failed (exit code 1)\nIt failed before this phase started too, with the same failures: making it pass may be this phase's job. The phase is not done until it passes.");
    expect(prompt).toContain('3 problems');
    expect(prompt).not.toMatch(/not caused|inherited/);
  });

  it('a gate that failed before and fails on something new now: what failed then, what fails now', () => {
    const prompt = buildRemediationPrompt({
      ...base,
      failedGates: [judged(outcome('tests', 'FAIL parser > parses x'), { kind: 'changed', before: ["Error: Cannot find module './parser'"], added: ['parser > parses x'] })],
    }, 'PHASE');
    expect(prompt).toContain("It failed before this phase started too, but what fails now is new: parser > parses x. Before this phase started it failed with: Error: Cannot find module './parser'. Look for the cause in this phase's changes.");
  });

  it('only the exit status changed: says so with both', () => {
    const prompt = buildRemediationPrompt({ ...base, failedGates: [judged(outcome('tests', 'x'), { kind: 'changed', before: ['x'], added: [], exit: { before: 5, now: 1 } })] }, 'PHASE');
    expect(prompt).toContain('It failed before this phase started too, but differently now. It exited with 5 then, 1 now. Before this phase started it failed with: x.');
  });

  it('cuts a long list of new failures', () => {
    const added = Array.from({ length: 13 }, (_, i) => `t${i}`);
    const prompt = buildRemediationPrompt({ ...base, failedGates: [judged(outcome('tests', 'x'), { kind: 'changed', before: [], added })] }, 'PHASE');
    expect(prompt).toContain('what fails now is new: t0; t1; t2; t3; t4; t5; t6; t7; t8; t9; and 3 more.');
  });

  it('names an earlier phase\'s gate the phase broke, with its output', () => {
    const prompt = buildRemediationPrompt({ ...base, brokenGates: [{ ...outcome('build', 'cannot find module'), phaseId: '1' }] }, 'PHASE');
    expect(prompt).toContain("This phase's own gates pass, but its changes broke gates of phases completed before it.");
    expect(prompt).toContain('## Gate `build` of phase 1 (completed earlier) now fails (exit code 1)');
    expect(prompt).toContain('cannot find module');
  });

  it('redacts what it adds', () => {
    const prompt = buildRemediationPrompt({ ...base, inheritedGates: [outcome('lint', 'token sk-secret')], redact: (text) => text.replace('sk-secret', '[REDACTED]') }, 'PHASE');
    expect(prompt).not.toContain('sk-secret');
  });
});
