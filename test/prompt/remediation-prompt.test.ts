/** The remediation prompt says which failures the phase introduced, which it inherited, and which earlier gates it broke. */
import { describe, expect, it } from 'vitest';
import type { GateOutcome } from '../../src/gates/index.js';
import { buildRemediationPrompt } from '../../src/prompt/remediation-prompt.js';

const outcome = (name: string, tail: string): GateOutcome => ({ name, command: `run ${name}`, passed: false, exitCode: 1, timedOut: false, interrupted: false, durationMs: 5, outputTail: tail });
const base = { phaseId: '2', failedGates: [] as GateOutcome[], otherProblems: [] as string[], redact: (text: string) => text };

describe('buildRemediationPrompt', () => {
  it('without a baseline it reads as before: each failed gate with its output', () => {
    const prompt = buildRemediationPrompt({ ...base, failedGates: [outcome('tests', '1 failed')] }, 'PHASE');
    expect(prompt).toContain('## Gate `tests` failed (exit code 1)\nCommand: `run tests`\nLast output:\n```\n1 failed\n```');
    expect(prompt).not.toContain('inherited');
    expect(prompt.endsWith('---\n\nPHASE')).toBe(true);
  });

  it('names the introduced and the inherited failures apart', () => {
    const prompt = buildRemediationPrompt({ ...base, failedGates: [outcome('tests', '1 failed')], inheritedGates: [outcome('lint', '3 problems')] }, 'PHASE');
    expect(prompt).toContain('Introduced by this phase (they passed before it started): `tests`. Failing before this phase started too (inherited, not caused by this phase, but the phase is not done until they pass): `lint`.');
    expect(prompt).toContain('## Gate `lint` failed (exit code 1), as it did before this phase started');
    expect(prompt).toContain('3 problems');
  });

  it('only inherited failures: says so without an empty "introduced" list', () => {
    const prompt = buildRemediationPrompt({ ...base, inheritedGates: [outcome('lint', 'x')] }, 'PHASE');
    expect(prompt).toContain('Failing before this phase started too');
    expect(prompt).not.toContain('Introduced by this phase');
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
