/** Every template, at the edges of the phase count, generates a plan the audit finds nothing in. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { auditPlan, executionOrder } from '../../src/plan/index.js';
import { createPlan, loadPlanTemplate, PLAN_TEMPLATE_NAMES, planTitle, renderPlanFiles } from '../../src/scaffold/index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'debussy-scaffold-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.each(PLAN_TEMPLATE_NAMES)('the %s template', (template) => {
  it.each([1, 3, 50])('with %i phases passes the audit with no findings, phases chained in order', async (phases) => {
    const report = await createPlan({ name: 'my-plan', phases, template, plansDir: path.join(root, 'plans'), projectRoot: root });
    const audit = await auditPlan(report.masterPath);
    expect(audit.findings).toEqual([]);
    const plan = audit.plan;
    if (!plan) throw new Error('no plan parsed');
    expect(plan.name).toBe('My Plan');
    expect(plan.phases.map((phase) => phase.id)).toEqual(Array.from({ length: phases }, (_x, i) => String(i + 1)));
    plan.phases.forEach((phase, index) => {
      expect(phase.dependsOn).toEqual(index === 0 ? [] : [String(index)]);
      expect(phase.file?.gates.length).toBeGreaterThan(0);
      expect(phase.file?.tasks.total).toBeGreaterThan(0);
      expect(phase.file?.notesToWrite).toEqual([`notes/NOTES_my-plan_phase_${phase.id}.md`]);
      expect(phase.file?.notesToRead).toEqual(index === 0 ? [] : [`notes/NOTES_my-plan_phase_${index}.md`]);
    });
    expect(executionOrder(plan).map((phase) => phase.id)).toEqual(plan.phases.map((phase) => phase.id));
  });

  it('leaves no placeholder behind', async () => {
    const files = renderPlanFiles(await loadPlanTemplate(template), { name: 'x', phases: 2, masterPath: 'plans/x/MASTER_PLAN.md' });
    for (const file of files) expect(file.content).not.toMatch(/\{\{|\}\}/);
  });
});

describe('the templates differ in their gates', () => {
  it.each([
    { template: 'generic', gates: ['tests'] },
    { template: 'backend', gates: ['tests', 'lint', 'typecheck'] },
    { template: 'frontend', gates: ['build', 'tests', 'lint'] },
  ])('$template: $gates', async ({ template, gates }) => {
    const report = await createPlan({ name: 'g', phases: 1, template, plansDir: root, projectRoot: root });
    const audit = await auditPlan(report.masterPath);
    const found = audit.plan?.phases[0]?.file?.gates ?? [];
    expect(found.map((gate) => gate.name)).toEqual(gates);
    for (const gate of found) expect(gate.command).toMatch(/^(npm|npx) /);
  });
});

describe('createPlan', () => {
  it('writes the master plan path relative to the project root into the plan', async () => {
    const report = await createPlan({ name: 'demo', phases: 2, template: 'generic', plansDir: path.join(root, 'work', 'plans'), projectRoot: root });
    expect(report.masterPath).toBe(path.join(root, 'work', 'plans', 'demo', 'MASTER_PLAN.md'));
    expect(await readFile(report.masterPath, 'utf8')).toContain('`debussy audit work/plans/demo/MASTER_PLAN.md`');
    expect(report.files.map((file) => [path.basename(file.path), file.outcome])).toEqual([
      ['MASTER_PLAN.md', 'created'],
      ['phase-1.md', 'created'],
      ['phase-2.md', 'created'],
    ]);
  });

  it('refuses an existing plan folder without force, and rewrites only what differs with it', async () => {
    const request = { name: 'demo', phases: 2, template: 'generic', plansDir: root, projectRoot: root };
    const first = await createPlan(request);
    await expect(createPlan(request)).rejects.toThrow(UsageError);
    await expect(createPlan(request)).rejects.toThrow(/already exists/);
    const edited = first.files[1]?.path ?? '';
    await writeFile(edited, 'edited by hand\n');
    const again = await createPlan({ ...request, force: true });
    expect(again.files.map((file) => file.outcome)).toEqual(['unchanged', 'overwritten', 'unchanged']);
    expect(await readFile(edited, 'utf8')).toContain('# Phase 1: Groundwork');
  });

  it.each([
    { name: 'Demo', why: 'upper case' },
    { name: '../escape', why: 'a path' },
    { name: 'a b', why: 'a space' },
    { name: '-lead', why: 'a leading dash' },
    { name: 'trail-', why: 'a trailing dash' },
    { name: '', why: 'empty' },
    { name: 'x'.repeat(65), why: 'too long' },
  ])('refuses the name "$name" ($why)', async ({ name }) => {
    await expect(createPlan({ name, phases: 1, template: 'generic', plansDir: root, projectRoot: root })).rejects.toThrow(/not a usable plan name/);
  });

  it.each([0, 51, 2.5, Number.NaN])('refuses %s phases', async (phases) => {
    await expect(createPlan({ name: 'ok', phases, template: 'generic', plansDir: root, projectRoot: root })).rejects.toThrow(/--phases .* whole number from 1 to 50/);
  });

  it('refuses an unknown template, listing the known ones', async () => {
    await expect(createPlan({ name: 'ok', phases: 1, template: 'mobile', plansDir: root, projectRoot: root })).rejects.toThrow(/unknown template "mobile"/);
  });
});

describe('planTitle', () => {
  it.each([
    ['demo', 'Demo'],
    ['billing-service', 'Billing Service'],
    ['v2_api', 'V2 Api'],
  ])('%s -> %s', (name, title) => {
    expect(planTitle(name)).toBe(title);
  });
});
