/**
 * Plans written the way people write them for this workflow (the original Claude-Debussy's plans and
 * the seed format) are read as their authors meant: headings that only mention gates, dependency
 * wording that means "none", gate commands in fenced blocks, completion instructions with another id.
 * The fixtures under test/fixtures/plans/ were written for this project in those formats.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { auditPlan, formatFinding, parsePlan, type AuditFinding, type Phase, type Plan } from '../../src/plan/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plans/', import.meta.url));

async function load(folder: string): Promise<Plan> {
  const { plan } = await parsePlan(join(fixtures, folder, 'MASTER_PLAN.md'));
  if (plan === undefined) throw new Error(`fixture ${folder} did not parse`);
  return plan;
}

function phase(plan: Plan, id: string): Phase {
  const found = plan.phases.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no phase ${id}`);
  return found;
}

/** `file:line code` relative to the fixture folder. */
function summary(folder: string, findings: AuditFinding[]): string[] {
  return findings.map((finding) => formatFinding(finding, join(fixtures, folder)).replace(/: (?:error|warning): .* \[/, ' ['));
}

describe('a gates section is a section named Gates, never a document title', () => {
  const cases: { id: string; heading: string; gates: [string, string][] }[] = [
    // The H1 mentions gates; its task bullets (code spans, notes paths) are no gates.
    { id: '1', heading: '# Quality gates for the release pipeline, then ## Gates (must pass before completion)', gates: [['tests', 'npm test']] },
    // No gates section at all: the title's "Gates" turns nothing into a gate.
    { id: '2', heading: '# Missing Gates Phase 2: Intake form', gates: [] },
    // A ### Gates inside a phase section counts; "## Gate review notes" is something else.
    { id: '3', heading: '### Gates under ## Phase 3 checklist', gates: [['lint', 'npm run lint'], ['build', 'npm run build']] },
    // One qualifier before the name, a remark after it, bold markers.
    { id: '4', heading: '## Quality Gates and ## **Gates:** all blocking', gates: [['types', 'npx tsc --noEmit'], ['format', 'npx prettier --check .']] },
    // A title that is exactly "Gates" is still the title; the ## Gates below it is the section.
    { id: '5', heading: '# Gates (title) and ## Gates', gates: [['docs', 'grep -q release-check README.md']] },
  ];

  it.each(cases)('phase $id: $heading', async ({ id, gates }) => {
    const plan = await load('gates-headings');
    expect(phase(plan, id).file?.gates.map((gate) => [gate.name, gate.command])).toEqual(gates);
  });

  it('no task bullet became a gate without a command; the phase without a gates section is named as gate-less', async () => {
    const report = await auditPlan(join(fixtures, 'gates-headings', 'MASTER_PLAN.md'));
    expect(summary('gates-headings', report.findings)).toEqual(['phase-2.md [no-gates]']);
  });
});

describe('dependency wording that means none yields no dependency, wherever it is read', () => {
  // Each phase says "none" three times: in the table's Depends On cell, its **Depends On:** line and its ## Dependencies section.
  const cases: { id: string; cell: string; field: string; section: string }[] = [
    { id: '1', cell: 'N/A', field: 'N/A', section: 'Previous phase: None (this is the foundation)' },
    { id: '2', cell: 'None', field: 'None', section: 'Previous phase: N/A (runs in parallel with Phase 1)' },
    { id: '3', cell: 'Independent', field: 'Independent', section: 'Independent - runs in parallel with Phase 2' },
    { id: '4', cell: 'N/A (runs in parallel with Phase 1)', field: 'N/A (Independent - runs in parallel with Phase 1)', section: '**Previous phase:** N/A (runs alongside Phase 3)' },
    { id: '5', cell: '-', field: '-', section: 'None' },
    { id: '6', cell: '—', field: '—', section: 'Previous phase: —' },
    { id: '7', cell: '(empty)', field: '(no line)', section: 'N/A' },
    { id: '8', cell: 'None (can start any time)', field: 'None - can start any time', section: 'Previous phases: none; it can run in parallel with Phases 1-7' },
  ];

  it.each(cases)('phase $id: cell "$cell", field "$field", section "$section"', async ({ id }) => {
    const plan = await load('dependency-wording');
    const found = phase(plan, id);
    expect(found.dependsOn).toEqual([]);
    expect(found.dependencyRefs).toEqual([]);
    expect(found.file?.dependencyRefs).toEqual([]);
  });

  it('reads them without a finding (no "names no phase" warning)', async () => {
    const report = await auditPlan(join(fixtures, 'dependency-wording', 'MASTER_PLAN.md'));
    expect(summary('dependency-wording', report.findings)).toEqual([]);
  });
});

describe('gate commands in fenced blocks and other real-plan gate forms', () => {
  const cases: { phase: string; name: string; command: string | undefined; line: number }[] = [
    { phase: '1', name: 'lint', command: 'npm run lint', line: 18 }, // ```bash  command: npm run lint  ```
    { phase: '1', name: 'typecheck', command: 'npx tsc --noEmit', line: 22 }, // a # comment line is dropped
    { phase: '1', name: 'tests', command: 'npm run test:unit && npm run test:integration', line: 27 }, // two `$ ` lines: both must pass
    { phase: '1', name: 'audit', command: 'npm audit --audit-level=high', line: 32 }, // a ~~~ block wins over the span in the text
    { phase: '1', name: 'tests', command: 'npm run test:smoke', line: 36 },
    // The block at the section's margin below is an example, not coverage's command.
    { phase: '1', name: 'coverage', command: undefined, line: 37 },
    // `- command: \`...\` ➜ result`: the label is no name, the command names the gate.
    { phase: '2', name: 'npm run lint', command: 'npm run lint', line: 11 },
    { phase: '2', name: 'npm test -- checkout', command: 'npm test -- checkout', line: 12 },
    // `\`command: npm run build\``: the label inside the span is not part of the command.
    { phase: '2', name: 'build', command: 'npm run build', line: 13 },
  ];

  it('reads each gate in order, with its command', async () => {
    const plan = await load('fenced-gates');
    const read = plan.phases.flatMap((p) => (p.file?.gates ?? []).map((gate) => ({ phase: p.id, name: gate.name, command: gate.command, line: gate.line })));
    expect(read).toEqual(cases);
  });

  it('does not take the Process Wrapper\'s fenced pre-validation block for a gate', async () => {
    const plan = await load('fenced-gates');
    expect(phase(plan, '1').file?.gates.map((gate) => gate.line).every((line) => line >= 14)).toBe(true);
  });

  it('warns about two gates with the same name and still errors on the gate without a command', async () => {
    const report = await auditPlan(join(fixtures, 'fenced-gates', 'MASTER_PLAN.md'));
    expect(summary('fenced-gates', report.findings)).toEqual(['phase-1.md:36 [duplicate-gate]', 'phase-1.md:37 [gate-without-command]']);
    expect(report.findings[0]?.severity).toBe('warning');
    expect(report.findings[0]?.message).toBe('phase 1: gate "tests" is named twice (first on line 27); give each gate its own name');
  });
});

describe('phase-file checks: where a dependency is named, and which id the agent is told to signal', () => {
  it.each([
    // "Phase 1 (Importer) - needs its record types": the remark is no dependency; a renamed link still says Phase 1.
    { id: '2', dependsOn: ['1', '7'], refs: [['MASTER_PLAN.md', 6, '1'], ['phase-2.md', 4, '1'], ['phase-2.md', 14, '1'], ['phase-2.md', 15, '7']] },
    // "Previous phases: Phases 1-2 (...)": a range.
    { id: '3', dependsOn: ['2', '9', '1'], refs: [['MASTER_PLAN.md', 7, '2'], ['phase-3.md', 4, '2'], ['phase-3.md', 4, '9'], ['phase-3.md', 14, '1'], ['phase-3.md', 14, '2']] },
  ])('phase $id: dependencies with the line that names each', async ({ id, dependsOn, refs }) => {
    const plan = await load('phase-file-checks');
    const found = phase(plan, id);
    expect(found.dependsOn).toEqual(dependsOn);
    expect(found.dependencyRefs.map((ref) => [ref.file.slice(join(fixtures, 'phase-file-checks').length + 1), ref.line, ref.id])).toEqual(refs);
  });

  it('reports an unknown dependency at the phase-file line that names it, and a foreign completion id as an error', async () => {
    const report = await auditPlan(join(fixtures, 'phase-file-checks', 'MASTER_PLAN.md'));
    expect(summary('phase-file-checks', report.findings)).toEqual([
      'phase-2.md:15 [unknown-dependency]',
      'phase-3.md:4 [unknown-dependency]',
      'phase-4.md:8 [completion-id-mismatch]',
    ]);
    expect(report.errors).toBe(3);
    expect(report.findings[0]?.message).toBe('phase 2 depends on phase 7, which is not in the phase table (known: 1, 2, 3, 4)');
    expect(report.findings[2]?.message).toContain('tells the agent to run `debussy done --phase 6D`, but its row in the master plan has id 4');
    expect(report.findings[2]?.message).toContain('write `debussy done --phase 4`');
  });

  it('reads the completion instruction, skipping placeholders such as --phase <id>', async () => {
    const plan = await load('phase-file-checks');
    expect(phase(plan, '4').file?.completionSignals).toEqual([{ id: '6D', line: 8 }]);
  });

  it('accepts the seed format, whose row id 6D matches its `debussy done --phase 6D`', async () => {
    const report = await auditPlan(join(fixtures, 'seed-format', 'context-monitoring-MASTER_PLAN.md'), { gateCommands: { coverage: 'npm run coverage' } });
    expect(report.findings).toEqual([]);
  });
});
