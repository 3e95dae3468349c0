import { describe, expect, it } from 'vitest';
import { findingsForSelection, selectedPhaseIds, type AuditFinding, type Phase, type Plan } from '../../src/plan/index.js';

function phase(id: string, dependsOn: string[] = []): Phase {
  return { id, title: `Phase ${id}`, link: `phase-${id}.md`, path: `/p/phase-${id}.md`, status: undefined, statusText: undefined, dependsOn, dependencyRefs: [], extra: {}, line: 1, file: undefined };
}
// Table order 1, 3, 2; 3 depends on 2, so execution order is 1, 2, 3.
const plan: Plan = { name: 'P', path: '/p/MASTER_PLAN.md', phases: [phase('1'), phase('3', ['2']), phase('2', ['1'])] };

describe('selectedPhaseIds', () => {
  it.each<[string, { only?: string; startAt?: string }, string[]]>([
    ['no selection: every phase, in execution order', {}, ['1', '2', '3']],
    ['--only: that phase', { only: '3' }, ['3']],
    ['--phase: it and every phase after it in execution order', { startAt: '2' }, ['2', '3']],
    ['--only an unknown id: every phase (the run refuses the id)', { only: '9' }, ['1', '2', '3']],
    ['--phase an unknown id: every phase', { startAt: '9' }, ['1', '2', '3']],
  ])('%s', (_name, selection, expected) => {
    expect(selectedPhaseIds(plan, selection)).toEqual(expected);
  });
});

describe('findingsForSelection', () => {
  const finding = (severity: AuditFinding['severity'], code: string, phaseId?: string): AuditFinding => ({ severity, code, message: `${code} here`, ...(phaseId === undefined ? {} : { phaseId }) });

  it.each<[string, AuditFinding, AuditFinding['severity']]>([
    ['an error of a selected phase stays an error', finding('error', 'missing-phase-file', '3'), 'error'],
    ['an error of a phase not selected is a warning', finding('error', 'missing-phase-file', '1'), 'warning'],
    ['a gate without a command in a phase not selected is a warning', finding('error', 'gate-without-command', '2'), 'warning'],
    ['an error of no phase (an unparseable row) stays an error', finding('error', 'unparseable-row'), 'error'],
    ['a duplicate id stays an error: it concerns every run', finding('error', 'duplicate-phase-id', '1'), 'error'],
    ['a dependency cycle stays an error', finding('error', 'dependency-cycle', '1'), 'error'],
    ['a warning stays a warning', finding('warning', 'no-gates', '1'), 'warning'],
  ])('%s', (_name, input, severity) => {
    expect(findingsForSelection([input], ['3'])[0]?.severity).toBe(severity);
  });

  it('says why an error became a warning, and leaves the rest as they were', () => {
    const kept = finding('error', 'missing-phase-file', '3');
    expect(findingsForSelection([finding('error', 'missing-phase-file', '1'), kept], ['3'])).toEqual([
      { severity: 'warning', code: 'missing-phase-file', phaseId: '1', message: 'missing-phase-file here (an audit error; phase 1 is not selected, so this run goes on)' },
      kept,
    ]);
  });
});
