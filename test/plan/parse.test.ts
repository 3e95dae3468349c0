import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePlan, type Phase, type Plan } from '../../src/plan/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plans/', import.meta.url));

async function load(folder: string, file = 'MASTER_PLAN.md'): Promise<Plan> {
  const { plan } = await parsePlan(join(fixtures, folder, file));
  if (plan === undefined) throw new Error(`fixture ${folder} did not parse`);
  return plan;
}

function phase(plan: Plan, id: string): Phase {
  const found = plan.phases.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no phase ${id}`);
  return found;
}

describe('parsePlan: the seed phase-file format', () => {
  it('reads the master table and the seed phase file', async () => {
    const { plan, findings } = await parsePlan(join(fixtures, 'seed-format', 'context-monitoring-MASTER_PLAN.md'));
    expect(findings).toEqual([]);
    expect(plan?.name).toBe('Context Monitoring');
    // The table inside the fenced block is an example, not phase 99.
    expect(plan?.phases.map((p) => p.id)).toEqual(['1', '2', '3', '6D']);
    expect(plan?.phases.map((p) => p.status)).toEqual(['completed', 'completed', 'in_progress', 'pending']);
    expect(plan?.phases.map((p) => p.statusText)).toEqual(['✅ Complete', '✅ Complete', 'In Progress', 'Pending']);
  });

  it('takes the seed file apart: status, dependencies, gates, tasks and notes', async () => {
    const plan = await load('seed-format', 'context-monitoring-MASTER_PLAN.md');
    const seed = phase(plan, '6D');
    expect(seed.title).toBe('Smart Restart Logic');
    expect(seed.extra).toEqual({ Focus: 'Restart orchestration' });
    expect(seed.path).toBe(join(fixtures, 'seed-format', 'context-monitoring-phase-4.md'));
    expect(seed.file?.title).toBe('Context Monitoring Phase 4: Smart Restart Logic');
    expect(seed.file?.statusText).toBe('Pending');
    expect(seed.file?.status).toBe('pending');
    // **Depends On:** links map to ids by file path; "Previous phases: ALL (1, 2, 3)" agrees.
    const seedFile = join(fixtures, 'seed-format', 'context-monitoring-phase-4.md');
    expect(seed.file?.dependencyRefs).toEqual([
      ...['1', '2', '3'].map((id) => ({ id, file: seedFile, line: 5 })),
      ...['1', '2', '3'].map((id) => ({ id, file: seedFile, line: 48 })),
    ]);
    expect(seed.dependsOn).toEqual(['1', '2', '3']);
    expect(seed.file?.completionSignals).toEqual([{ id: '6D', line: 30 }]);
    expect(seed.file?.gates).toEqual([
      { name: 'ruff', command: 'uv run ruff check .', commandSource: 'plan', description: '0 errors', line: 36 },
      { name: 'pyright', command: 'uv run pyright src/debussy/', commandSource: 'plan', description: '0 errors in src/debussy/', line: 37 },
      { name: 'tests', command: 'uv run pytest tests/ -v', commandSource: 'plan', description: 'ALL tests pass', line: 38 },
      { name: 'coverage', command: undefined, commandSource: 'none', description: 'No decrease from current (~60%)', line: 39 },
    ]);
    expect(seed.file?.tasks).toEqual({ total: 72, done: 0 });
    expect(seed.file?.notesToWrite).toEqual(['notes/NOTES_phase3_templates_phase_6D.md']);
    expect(seed.file?.notesToRead).toEqual([
      'notes/NOTES_phase3_templates_phase_6A.md',
      'notes/NOTES_phase3_templates_phase_6B.md',
      'notes/NOTES_phase3_templates_phase_6C.md',
    ]);
  });

  it('maps an unmapped gate through the config gates map', async () => {
    const { plan } = await parsePlan(join(fixtures, 'seed-format', 'context-monitoring-MASTER_PLAN.md'), {
      gateCommands: { Coverage: 'npm run coverage', tests: 'ignored: the plan names its own command' },
    });
    const gates = plan?.phases.find((p) => p.id === '6D')?.file?.gates ?? [];
    expect(gates.find((gate) => gate.name === 'coverage')).toMatchObject({ command: 'npm run coverage', commandSource: 'config' });
    expect(gates.find((gate) => gate.name === 'tests')).toMatchObject({ command: 'uv run pytest tests/ -v', commandSource: 'plan' });
  });
});

describe('parsePlan: ids, statuses and columns found by name', () => {
  const cases: { id: string; title: string; status: Phase['status']; statusText: string | undefined; dependsOn: string[]; link: string }[] = [
    { id: '1', title: 'Inventory', status: 'completed', statusText: '✅ Complete', dependsOn: [], link: 'phases/one.md' },
    { id: '3.1', title: 'Schema', status: 'in_progress', statusText: 'In Progress', dependsOn: ['1'], link: 'phases/three-one.md' },
    { id: '2b', title: 'Backfill', status: 'in_progress', statusText: 'in_progress', dependsOn: ['3.1'], link: 'phases/two-b.md' },
    { id: '6D', title: 'Cutover', status: 'in_progress', statusText: 'running', dependsOn: ['3.1', '2b'], link: 'phases/six-d.md' },
    { id: '7', title: 'Cleanup', status: 'completed', statusText: 'Done', dependsOn: [], link: 'phases/seven.md' },
    { id: '8', title: 'Retire', status: 'pending', statusText: '⏳ pending', dependsOn: ['7', '6D'], link: 'phases/eight.md' },
    { id: '9', title: 'Review', status: 'skipped', statusText: 'Skipped', dependsOn: [], link: 'phases/nine.md' },
    { id: '10', title: 'Audit', status: 'failed', statusText: '❌ Failed', dependsOn: ['9'], link: 'phases/ten.md' },
    { id: '11', title: 'Archive', status: 'blocked', statusText: 'Blocked', dependsOn: ['10'], link: 'phases/eleven.md' },
  ];

  it('parses every row without findings, in table order', async () => {
    const { plan, findings } = await parsePlan(join(fixtures, 'ids-and-statuses', 'MASTER_PLAN.md'));
    expect(findings).toEqual([]);
    expect(plan?.name).toBe('Migration Plan');
    expect(plan?.phases.map((p) => p.id)).toEqual(cases.map((c) => c.id));
  });

  it.each(cases)('phase $id', async (expected) => {
    const plan = await load('ids-and-statuses');
    const found = phase(plan, expected.id);
    expect({
      title: found.title,
      status: found.status,
      statusText: found.statusText,
      dependsOn: found.dependsOn,
      link: found.link,
    }).toEqual({ title: expected.title, status: expected.status, statusText: expected.statusText, dependsOn: expected.dependsOn, link: expected.link });
    expect(found.path).toBe(join(fixtures, 'ids-and-statuses', expected.link));
    expect(found.file).toBeDefined();
  });

  it('keeps the other columns as text by header name', async () => {
    const plan = await load('ids-and-statuses');
    expect(phase(plan, '3.1').extra).toEqual({ Owner: 'ben', Estimate: '2d' });
    expect(phase(plan, '3.1').line).toBe(9);
  });
});

describe('parsePlan: sections', () => {
  it('keeps a ### inside a section and stops at the next ## heading', async () => {
    const plan = await load('sections');
    const file = phase(plan, '1').file;
    expect(file?.gates.map((gate) => [gate.name, gate.command ?? null, gate.commandSource])).toEqual([
      ['tests', 'npm test', 'plan'],
      ['lint', 'npm run lint', 'plan'],
      ['coverage', null, 'none'],
      ['types', 'npx tsc --noEmit', 'plan'],
    ]);
    expect(file?.gates.find((gate) => gate.name === 'lint')?.description).toBe('');
    expect(file?.gates.find((gate) => gate.name === 'types')?.description).toBe('`npx tsc --noEmit` must pass');
    expect(file?.status).toBe('in_progress');
    expect(file?.tasks).toEqual({ total: 4, done: 2 });
    expect(file?.notesToWrite).toEqual(['HANDOFF.md']);
  });

  it('reads phase references in a ## Dependencies section and ignores the rest', async () => {
    const plan = await load('sections');
    const file = phase(plan, '2').file;
    expect(file?.dependencyRefs.map((ref) => [ref.id, ref.line])).toEqual([
      ['1', 8],
      ['2', 9],
    ]);
    // The phase naming itself in prose is no dependency.
    expect(phase(plan, '2').dependsOn).toEqual(['1']);
    expect(phase(plan, '2').dependencyRefs.map((ref) => ref.id)).toEqual(['1']);
    // "Write tests in `test/x.ts`" is not a notes file.
    expect(file?.notesToWrite).toEqual([]);
  });

  it('takes a phase title from the phase file H1 when the table gives none', async () => {
    const plan = await load('ids-and-statuses');
    expect(phase(plan, '7').title).toBe('Cleanup');
    expect(phase(plan, '7').file?.title).toBe('Cleanup the leftovers');
  });
});

describe('parsePlan: parse-level findings', () => {
  it('reports unparseable rows, missing files and unknown statuses, never dropping a row silently', async () => {
    const master = join(fixtures, 'malformed', 'MASTER_PLAN.md');
    const { plan, findings } = await parsePlan(master);
    expect(plan?.phases.map((p) => p.id)).toEqual(['1', '4', '5', '6']);
    expect(findings.map((f) => [f.code, f.severity, f.line, f.file === master ? 'master' : f.file])).toEqual([
      ['unparseable-row', 'error', 6, 'master'],
      ['unparseable-row', 'error', 7, 'master'],
      ['missing-phase-file', 'error', 8, 'master'],
      ['unknown-status', 'warning', 9, 'master'],
      ['unparseable-row', 'error', 12, 'master'],
      ['unknown-status', 'warning', 3, join(fixtures, 'malformed', 'phase-5.md')],
    ]);
    expect(findings[0]?.message).toContain('phase 2 has no link to its phase file');
    expect(findings[0]?.message).toContain('| 2 | Forgot the link |');
    expect(findings[1]?.message).toContain('no phase id');
    expect(findings[2]?.message).toContain('phase-4-missing.md');
    expect(findings[3]?.message).toContain('"Someday"');
    expect(findings[4]?.message).toContain('not part of the phase table');
  });

  it('returns no plan when the master plan is missing', async () => {
    const { plan, findings } = await parsePlan(join(fixtures, 'does-not-exist', 'MASTER_PLAN.md'));
    expect(plan).toBeUndefined();
    expect(findings.map((f) => f.code)).toEqual(['missing-master-plan']);
  });

  it('returns no plan when no table has a Phase column', async () => {
    const { plan, findings } = await parsePlan(join(fixtures, 'no-table', 'MASTER_PLAN.md'));
    expect(plan).toBeUndefined();
    expect(findings.map((f) => f.code)).toEqual(['no-phase-table']);
  });

  it('accepts a folder holding one master plan', async () => {
    const { plan } = await parsePlan(join(fixtures, 'valid'));
    expect(plan?.path).toBe(join(fixtures, 'valid', 'MASTER_PLAN.md'));
    expect(plan?.name).toBe('Greeting Service');
  });
});
