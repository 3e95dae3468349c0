import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { auditPlan, formatFinding, type AuditFinding } from '../../src/plan/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plans/', import.meta.url));

/** `file:line code` with the file relative to the fixture folder: short, and exact. */
function summary(folder: string, findings: AuditFinding[]): string[] {
  return findings.map((finding) => formatFinding(finding, join(fixtures, folder)).replace(/: (?:error|warning): .* \[/, ' ['));
}

describe('auditPlan', () => {
  // `label` only tells two cases over the same folder apart in the test names.
  const cases: { folder: string; master?: string; gateCommands?: Record<string, string>; label?: string; expected: string[] }[] = [
    { folder: 'valid', expected: [] },
    { folder: 'ids-and-statuses', expected: [] },
    {
      folder: 'seed-format',
      master: 'context-monitoring-MASTER_PLAN.md',
      expected: ['context-monitoring-phase-4.md:39 [gate-without-command]'],
    },
    {
      folder: 'seed-format',
      master: 'context-monitoring-MASTER_PLAN.md',
      gateCommands: { coverage: 'npm run coverage' },
      label: 'with the config mapping the gate',
      expected: [],
    },
    {
      folder: 'sections',
      expected: ['phase-1.md:13 [gate-without-command]', 'phase-2.md [missing-notes-output]'],
    },
    {
      folder: 'malformed',
      expected: [
        'MASTER_PLAN.md:6 [unparseable-row]',
        'MASTER_PLAN.md:7 [unparseable-row]',
        'MASTER_PLAN.md:8 [missing-phase-file]',
        'MASTER_PLAN.md:9 [unknown-status]',
        'MASTER_PLAN.md:12 [unparseable-row]',
        'phase-5.md:3 [unknown-status]',
        'phase-6.md [missing-notes-output]',
        'phase-6.md:5 [gate-without-command]',
      ],
    },
    {
      folder: 'cycle',
      expected: ['MASTER_PLAN.md:5 [dependency-cycle]', 'MASTER_PLAN.md:8 [dependency-cycle]', 'MASTER_PLAN.md:10 [dependency-cycle]'],
    },
    {
      folder: 'duplicates',
      expected: ['MASTER_PLAN.md:7 [duplicate-phase-id]', 'MASTER_PLAN.md:8 [unknown-dependency]'],
    },
    { folder: 'order', expected: ['MASTER_PLAN.md:10 [unknown-dependency]'] },
    {
      folder: 'control-characters',
      expected: [
        'MASTER_PLAN.md [terminal-controls]',
        'MASTER_PLAN.md:7 [terminal-controls]',
        'phase-1.md [terminal-controls]',
        'phase-1.md:10 [terminal-controls]',
        'phase-1.md:11 [terminal-controls]',
      ],
    },
    { folder: 'no-table', expected: ['MASTER_PLAN.md [no-phase-table]'] },
    { folder: 'missing', expected: ['MASTER_PLAN.md [missing-master-plan]'] },
  ];

  it.each(cases.map((entry) => ({ label: '', ...entry })))('$folder $label', async ({ folder, master, gateCommands, expected }) => {
    const report = await auditPlan(join(fixtures, folder, master ?? 'MASTER_PLAN.md'), gateCommands === undefined ? {} : { gateCommands });
    expect(summary(folder, report.findings)).toEqual(expected);
    expect(report.errors + report.warnings).toBe(report.findings.length);
    expect(report.errors).toBe(report.findings.filter((finding) => finding.severity === 'error').length);
  });

  it('reports every cycle with its path', async () => {
    const report = await auditPlan(join(fixtures, 'cycle', 'MASTER_PLAN.md'));
    expect(report.findings.map((finding) => finding.message)).toEqual([
      'dependency cycle: 1 -> 3 -> 2 -> 1 (each phase depends on the next)',
      'dependency cycle: 4 -> 5 -> 4 (each phase depends on the next)',
      'dependency cycle: 6 -> 6 (each phase depends on the next)',
    ]);
    expect(report.errors).toBe(3);
  });

  it('names the unknown dependency and the ids that exist', async () => {
    const report = await auditPlan(join(fixtures, 'duplicates', 'MASTER_PLAN.md'));
    const unknown = report.findings.find((finding) => finding.code === 'unknown-dependency');
    expect(unknown?.message).toBe('phase 3 depends on phase 9, which is not in the phase table (known: 1, 2, 3)');
    expect(unknown?.phaseId).toBe('3');
  });

  it('counts warnings and errors separately', async () => {
    const report = await auditPlan(join(fixtures, 'malformed', 'MASTER_PLAN.md'));
    expect([report.errors, report.warnings]).toEqual([5, 3]);
    expect(report.plan?.phases.map((phase) => phase.id)).toEqual(['1', '4', '5', '6']);
  });

  it('reports a table whose rows are all unparseable as having no phases', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'debussy-plan-'));
    try {
      await writeFile(join(dir, 'MASTER_PLAN.md'), '# Empty\n\n| Phase | Title |\n|---|---|\n| one | no link |\n');
      const report = await auditPlan(join(dir, 'MASTER_PLAN.md'));
      expect(report.findings.map((finding) => [finding.code, finding.line])).toEqual([
        ['no-phases', undefined],
        ['unparseable-row', 5],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('formatFinding', () => {
  const finding: AuditFinding = { severity: 'error', code: 'unparseable-row', message: 'row has no link', file: '/repo/plans/x/MASTER_PLAN.md', line: 12 };

  it.each([
    { finding, cwd: '/repo', expected: 'plans/x/MASTER_PLAN.md:12: error: row has no link [unparseable-row]' },
    { finding, cwd: '/repo/plans/y', expected: '../x/MASTER_PLAN.md:12: error: row has no link [unparseable-row]' },
    { finding: { ...finding, line: undefined }, cwd: '/repo', expected: 'plans/x/MASTER_PLAN.md: error: row has no link [unparseable-row]' },
    { finding: { ...finding, file: undefined, severity: 'warning' as const }, cwd: '/repo', expected: 'warning: row has no link [unparseable-row]' },
  ])('$expected', ({ finding: input, cwd, expected }) => {
    expect(formatFinding(input, cwd)).toBe(expected);
  });
});
