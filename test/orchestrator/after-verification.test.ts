import { describe, expect, it } from 'vitest';
import { decideAfterVerification, type VerificationInput } from '../../src/orchestrator/after-verification.js';

interface Gate { name: string; outputTail: string }
const lint: Gate = { name: 'lint', outputTail: '3 problems' };
const test: Gate = { name: 'test', outputTail: '1 failed' };
const base: VerificationInput<Gate> = { interrupted: false, gateCount: 2, failedGates: [], notesProblems: [], refusals: [], retries: 0, maxRetries: 2 };
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
    ['no gates, no refusals: complete on the agent\'s word', { gateCount: 0 }, 'complete'],
    ['no gates and refusals: the run stops for permissions', { gateCount: 0, refusals: ['Write: src/x.ts'] }, 'abort_permissions'],
    ['no gates and refusals, no retries left: still permissions', { gateCount: 0, refusals: ['Write: src/x.ts'], retries: 2 }, 'abort_permissions'],
  ])('%s', (_name, change, kind) => {
    expect(decideAfterVerification({ ...base, ...change }).kind).toBe(kind);
  });

  it('sends failed gates back with their outputs, commits first, and uses one retry', () => {
    expect(decideAfterVerification({ ...base, failedGates: [lint, test], notesProblems: [missingNotes], retries: 1 })).toEqual({
      kind: 'remediate',
      retries: 2,
      notice: 'verification failed (lint, test): remediation 2/2',
      failedGates: [lint, test],
      inheritedGates: [],
      brokenGates: [],
      otherProblems: [missingNotes],
      checkpointReason: 'gates failed: lint, test',
    });
  });

  it('mends a missing notes file without a checkpoint commit', () => {
    expect(decideAfterVerification({ ...base, notesProblems: [missingNotes] })).toEqual({
      kind: 'remediate', retries: 1, notice: `gates passed but ${missingNotes}: remediation 1/2`, failedGates: [], inheritedGates: [], brokenGates: [], otherProblems: [missingNotes],
    });
  });

  it('names what is still failing and how many sessions tried', () => {
    expect(decideAfterVerification({ ...base, failedGates: [test], retries: 2 })).toEqual({
      kind: 'fail',
      reason: 'gate(s) test still failing after 2 remediation session(s) (max_retries 2)',
      hint: 'Run the gates yourself (`debussy done --phase ID --verify` shows them) and fix what remains.',
    });
  });

  it('says why a gate-less phase is not taken on the word of a refused session', () => {
    expect(decideAfterVerification({ ...base, gateCount: 0, refusals: ['Write: src/x.ts', 'Edit: src/y.ts'] })).toMatchObject({
      kind: 'abort_permissions',
      reason: 'no gates check this phase, and claude refused 2 tool calls (Write: src/x.ts, Edit: src/y.ts) in the session that signalled it done: allow them with permission_mode / allowed_tools, and give the phase gates',
    });
  });

  it('names the unmet checks and the refusals when permissions stop the phase', () => {
    const verdict = decideAfterVerification({ ...base, failedGates: [test], notesProblems: [missingNotes], refusals: ['Bash: npm test'] });
    expect(verdict.kind).toBe('abort_permissions');
    if (verdict.kind !== 'abort_permissions') return;
    expect(verdict.reason).toMatch(/^gate\(s\) test failed; notes file notes\/phase-1\.md is missing after .*Bash: npm test.*: allow them with permission_mode \/ allowed_tools$/);
  });

  it('lists accepted notes problems when it completes without retries left', () => {
    expect(decideAfterVerification({ ...base, notesProblems: [missingNotes], retries: 2 })).toEqual({ kind: 'complete', accepted: [missingNotes], tolerated: [] });
  });

  describe('inherited failures and broken earlier gates (issue 17)', () => {
    const broken = { name: 'build', outputTail: 'error', phaseId: '1' };
    it.each<[string, Partial<VerificationInput<Gate>>, string]>([
      ['an inherited failure blocks by default', { inheritedGates: [lint] }, 'remediate'],
      ['an inherited failure blocks with inherited_failures: block', { inheritedGates: [lint], inheritedFailures: 'block' }, 'remediate'],
      ['an inherited failure alone completes with inherited_failures: warn', { inheritedGates: [lint], inheritedFailures: 'warn' }, 'complete'],
      ['warn still blocks on an introduced failure', { failedGates: [test], inheritedGates: [lint], inheritedFailures: 'warn' }, 'remediate'],
      ['an inherited failure with no retries left fails the phase', { inheritedGates: [lint], retries: 2 }, 'fail'],
      ['a broken earlier gate sends the phase back', { brokenEarlierGates: [broken] }, 'remediate'],
      ['a broken earlier gate with no retries left fails the phase', { brokenEarlierGates: [broken], retries: 2 }, 'fail'],
      ['a broken earlier gate after refusals: permissions', { brokenEarlierGates: [broken], refusals: ['Bash: npm run build'] }, 'abort_permissions'],
    ])('%s', (_name, change, kind) => {
      expect(decideAfterVerification({ ...base, ...change }).kind).toBe(kind);
    });

    it('keeps introduced and inherited failures apart for the prompt, and says which failed before', () => {
      expect(decideAfterVerification({ ...base, failedGates: [test], inheritedGates: [lint] })).toEqual({
        kind: 'remediate', retries: 1, notice: 'verification failed (test, lint; lint failed before the phase too): remediation 1/2',
        failedGates: [test], inheritedGates: [lint], brokenGates: [], otherProblems: [], checkpointReason: 'gates failed: test, lint',
      });
    });

    it('lists the tolerated inherited failures when it completes under warn', () => {
      expect(decideAfterVerification({ ...base, inheritedGates: [lint], inheritedFailures: 'warn' })).toEqual({ kind: 'complete', accepted: [], tolerated: [lint] });
    });

    it('names the earlier gate the phase broke, in the notice and when it gives up', () => {
      expect(decideAfterVerification({ ...base, brokenEarlierGates: [broken] })).toMatchObject({
        kind: 'remediate', notice: 'the phase broke earlier gate(s) build of phase 1: remediation 1/2', failedGates: [], brokenGates: [broken], checkpointReason: 'earlier gates broken: build of phase 1',
      });
      expect(decideAfterVerification({ ...base, brokenEarlierGates: [broken], retries: 2 })).toMatchObject({
        kind: 'fail', reason: 'earlier gate(s) build of phase 1, which this phase broke, still failing after 2 remediation session(s) (max_retries 2)',
      });
    });
  });
});
