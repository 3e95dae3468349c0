import { describe, expect, it } from 'vitest';
import { decideAfterVerification, type VerificationInput } from '../../src/orchestrator/after-verification.js';

interface Gate { name: string; outputTail: string }
const lint: Gate = { name: 'lint', outputTail: '3 problems' };
const test: Gate = { name: 'test', outputTail: '1 failed' };
const base: VerificationInput<Gate> = { interrupted: false, failedGates: [], notesProblems: [], refusals: [], retries: 0, maxRetries: 2 };
const missingNotes = 'notes file notes/phase-1.md is missing';

describe('decideAfterVerification', () => {
  it.each<[string, Partial<VerificationInput<Gate>>, string]>([
    ['every gate passes: complete', {}, 'complete'],
    ['interrupted while the gates ran: no verdict', { interrupted: true, failedGates: [lint] }, 'interrupted'],
    ['a gate fails with retries left: remediation', { failedGates: [lint] }, 'remediate'],
    ['a gate fails with no retries left: the phase fails', { failedGates: [lint], retries: 2 }, 'fail'],
    ['a notes file is missing with retries left: remediation', { notesProblems: [missingNotes] }, 'remediate'],
    ['a notes file is missing with no retries left: complete, accepted', { notesProblems: [missingNotes], retries: 2 }, 'complete'],
    ['a gate fails after refusals: the run stops for permissions', { failedGates: [lint], refusals: ['Bash: npm test'] }, 'abort_permissions'],
    ['a gate fails after refusals with no retries left: still permissions', { failedGates: [lint], refusals: ['Bash: npm test'], retries: 2 }, 'abort_permissions'],
    ['a missing notes file after refusals with retries left: permissions', { notesProblems: [missingNotes], refusals: ['Write: notes/phase-1.md'] }, 'abort_permissions'],
    ['a missing notes file after refusals, no retries left: complete, accepted', { notesProblems: [missingNotes], refusals: ['Write: notes/phase-1.md'], retries: 2 }, 'complete'],
    ['refusals while every check passes: complete', { refusals: ['Bash: rm -rf /'] }, 'complete'],
  ])('%s', (_name, change, kind) => {
    expect(decideAfterVerification({ ...base, ...change }).kind).toBe(kind);
  });

  it('sends failed gates back with their outputs, commits first, and uses one retry', () => {
    expect(decideAfterVerification({ ...base, failedGates: [lint, test], notesProblems: [missingNotes], retries: 1 })).toEqual({
      kind: 'remediate',
      retries: 2,
      notice: 'verification failed (lint, test): remediation 2/2',
      failedGates: [lint, test],
      otherProblems: [missingNotes],
      checkpointReason: 'gates failed: lint, test',
    });
  });

  it('mends a missing notes file without a checkpoint commit', () => {
    expect(decideAfterVerification({ ...base, notesProblems: [missingNotes] })).toEqual({
      kind: 'remediate', retries: 1, notice: `gates passed but ${missingNotes}: remediation 1/2`, failedGates: [], otherProblems: [missingNotes],
    });
  });

  it('names what is still failing and how many sessions tried', () => {
    expect(decideAfterVerification({ ...base, failedGates: [test], retries: 2 })).toEqual({
      kind: 'fail',
      reason: 'gate(s) test still failing after 2 remediation session(s) (max_retries 2)',
      hint: 'Run the gates yourself (`debussy done --phase ID --verify` shows them) and fix what remains.',
    });
  });

  it('names the unmet checks and the refusals when permissions stop the phase', () => {
    const verdict = decideAfterVerification({ ...base, failedGates: [test], notesProblems: [missingNotes], refusals: ['Bash: npm test'] });
    expect(verdict.kind).toBe('abort_permissions');
    if (verdict.kind !== 'abort_permissions') return;
    expect(verdict.reason).toMatch(/^gate\(s\) test failed; notes file notes\/phase-1\.md is missing after .*Bash: npm test.*: allow them with permission_mode \/ allowed_tools$/);
  });

  it('lists accepted notes problems when it completes without retries left', () => {
    expect(decideAfterVerification({ ...base, notesProblems: [missingNotes], retries: 2 })).toEqual({ kind: 'complete', accepted: [missingNotes] });
  });
});
