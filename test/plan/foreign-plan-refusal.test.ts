/**
 * Other tools' plans where debussy expects a master plan: recognised and named (detectFormat; the
 * audit's finding; the refusal `debussy run` and `debussy ci github` print, from loadAuditedPlan)
 * instead of the markdown hint "no phase table", which every one of them got before, JSON
 * included. And the audit's warning for a phase without gates, which debussy can only take the
 * agent's word for. test/plan/foreign-format.test.ts shows the same through the built binary once
 * per command (exit code, printed lines).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { PlanError } from '../../src/errors/index.js';
import { loadAuditedPlan } from '../../src/orchestrator/preflight.js';
import { detectFormat, jsonFormat } from '../../src/plan/foreign-format.js';
import { auditPlan, checkPlan } from '../../src/plan/audit.js';
import type { Phase, PhaseFile, Plan } from '../../src/plan/index.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

function tempDir(prefix = 'debussy-unit-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plan-import');
const fixtureText = (relative: string): string => readFileSync(path.join(FIXTURES, relative), 'utf8');
const PLAN_FORMAT_DOC = path.join(REPO_ROOT, 'docs/plan-format.md');

describe('detectFormat', () => {
  it.each([
    { file: 'taskmaster/.taskmaster/tasks/tasks.json', expected: 'taskmaster' },
    { file: 'taskmaster-flat/tasks.json', expected: 'taskmaster' },
    { file: 'ralph/prd.json', expected: 'ralph' },
    { file: 'gsd/.planning/ROADMAP.md', expected: 'gsd' },
    { file: 'speckit/specs/004-recipe-import/tasks.md', expected: 'speckit' },
  ])('$file is $expected', ({ file, expected }) => {
    expect(detectFormat(file, fixtureText(file))).toBe(expected);
  });

  it.each([
    { name: 'a debussy master plan', file: 'MASTER_PLAN.md', text: '# X\n\n| Phase | Title |\n|---|---|\n| 1 | [A](phase-1.md) |\n' },
    { name: 'JSON of something else', file: 'package.json', text: '{"name": "x", "scripts": {}}' },
    { name: 'broken JSON', file: 'tasks.json', text: '{"tasks": [' },
    { name: 'a tasks list without ids', file: 'tasks.json', text: '{"tasks": [{"title": "no id"}]}' },
    { name: 'a roadmap without phase sections', file: 'ROADMAP.md', text: '# Roadmap\n\n- ship it\n' },
    { name: 'a notes file with phase headings', file: 'notes.md', text: '# Notes\n\n### Phase 1: Setup\n**Goal**: x\n' },
  ])('$name is none', ({ file, text }) => {
    expect(detectFormat(file, text)).toBeUndefined();
  });

  it('a GSD roadmap whose field names are translated is still one, by its name and phase headings', () => {
    expect(detectFormat('.planning/ROADMAP.md', '# SHOP Roadmap\n\n### Phase 14: 멀티 다이얼로그\n\n**목표:** x\n')).toBe('gsd');
  });

  it('reads Taskmaster tags whatever they are called, and ralph by its userStories', () => {
    expect(jsonFormat({ 'feature-x': { tasks: [{ id: 1 }] }, other: { tasks: [] } })).toBe('taskmaster');
    expect(jsonFormat({ userStories: [] })).toBe('ralph');
    expect(jsonFormat({ master: { tasks: [{ id: 1 }] }, version: 2 })).toBeUndefined();
  });
});

function phaseWith(id: string, status: Phase['status'], gates: PhaseFile['gates'] | undefined): Phase {
  const file: PhaseFile | undefined = gates === undefined ? undefined : {
    path: `/p/phase-${id}.md`, title: undefined, statusText: undefined, status: undefined, dependencyRefs: [], gates,
    tasks: { total: 0, done: 0 }, notesToWrite: [`notes/${id}.md`], notesToRead: [], completionSignals: [],
  };
  return { id, title: id, link: `phase-${id}.md`, path: `/p/phase-${id}.md`, status, statusText: undefined, dependsOn: [], dependencyRefs: [], extra: {}, line: 1, file };
}

describe('a phase without gates', () => {
  const gate = { name: 'tests', command: 'npm test', commandSource: 'plan' as const, description: '', line: 5 };
  it.each([
    { name: 'pending, no gates: named', phase: phaseWith('2', 'pending', []), expected: ['no-gates'] },
    { name: 'no status, no gates: named', phase: phaseWith('2', undefined, []), expected: ['no-gates'] },
    { name: 'completed, no gates: not run again, so not named', phase: phaseWith('2', 'completed', []), expected: [] },
    { name: 'with a gate: fine', phase: phaseWith('2', 'pending', [gate]), expected: [] },
    { name: 'no phase file: the missing file is the finding', phase: phaseWith('2', 'pending', undefined), expected: [] },
  ])('$name', ({ phase, expected }) => {
    const plan: Plan = { name: 'x', path: '/p/MASTER_PLAN.md', phases: [phase] };
    const findings = checkPlan(plan);
    expect(findings.map((finding) => finding.code)).toEqual(expected);
    for (const finding of findings) {
      expect(finding).toMatchObject({ severity: 'warning', phaseId: '2', file: '/p/phase-2.md' });
      expect(finding.message).toBe(`phase 2 has no gates: debussy can only take the agent's word that it is done; add a "## Gates" section whose bullets name the commands that check it`);
    }
  });
});

describe.concurrent('another tool\'s plan given to the audit and to run', () => {
  let work: { dir: string; cleanup(): void };
  beforeAll(() => {
    work = tempDir('debussy-foreign-');
    for (const fixture of ['taskmaster', 'ralph', 'gsd', 'speckit']) cpSync(path.join(FIXTURES, fixture), work.dir, { recursive: true });
  });
  afterAll(() => work.cleanup());

  const cases = [
    { given: '.taskmaster/tasks/tasks.json', file: '.taskmaster/tasks/tasks.json', name: 'Taskmaster tasks.json' },
    { given: '.taskmaster', file: '.taskmaster/tasks/tasks.json', name: 'Taskmaster tasks.json' },
    { given: 'prd.json', file: 'prd.json', name: 'ralph prd.json' },
    { given: '.planning/ROADMAP.md', file: '.planning/ROADMAP.md', name: 'GSD ROADMAP.md' },
    { given: '.planning', file: '.planning/ROADMAP.md', name: 'GSD ROADMAP.md' },
    { given: 'specs/004-recipe-import/tasks.md', file: 'specs/004-recipe-import/tasks.md', name: 'spec-kit tasks.md' },
  ];

  it.each(cases)('audit $given: one error, "this is a $name" with the import command, no plan', async ({ given, file, name }) => {
    const report = await auditPlan(path.join(work.dir, given));
    // The audit shows the path relative to where debussy runs (here the worker's cwd).
    const shown = path.relative(process.cwd(), path.join(work.dir, file));
    expect(report.plan).toBeUndefined();
    expect(report.findings).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'foreign-plan-format',
        file: path.join(work.dir, file),
        message: `this is a ${name}, not a debussy master plan; \`debussy plan import ${shown}\` turns it into one (see ${PLAN_FORMAT_DOC})`,
      }),
    ]);
    expect(report.findings[0]?.message).not.toContain('no phase table');
  });

  it.each(cases)('run $given: refused before anything starts, naming the $name and the import (not the audit)', async ({ given, file, name }) => {
    const error = await loadAuditedPlan(path.join(work.dir, given), defaultConfig(), work.dir).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlanError);
    expect(error).toMatchObject({
      exitKind: 'prerequisites',
      message: `${file} is a ${name}, not a debussy master plan`,
      hint: `Run \`debussy plan import ${file}\`: it writes a debussy plan from it under plans/ and prints the \`debussy run\` command for that plan (see ${PLAN_FORMAT_DOC}).`,
    });
  });

  it('a GSD roadmap whose progress table has a Phase column is named too, not read as a plan of unlinked rows', async () => {
    const report = await auditPlan(path.join(work.dir, '.planning/ROADMAP.md'));
    expect(report.findings.map((finding) => finding.code)).toEqual(['foreign-plan-format']);
  });

  it('a debussy plan named ROADMAP.md is still a debussy plan', async () => {
    mkdirSync(path.join(work.dir, 'plans/r'), { recursive: true });
    writeFileSync(path.join(work.dir, 'plans/r/ROADMAP.md'), '# Roadmap: R\n\n| Phase | Title |\n|---|---|\n| 1 | [One](phase-1.md) |\n\n### Phase 1: One\n**Goal**: x\n');
    writeFileSync(path.join(work.dir, 'plans/r/phase-1.md'), '# Phase 1: One\n\n## Gates\n- tests: `npm test`\n\nWrite `notes/r.md`.\n');
    const report = await auditPlan(path.join(work.dir, 'plans/r/ROADMAP.md'));
    expect(report.findings).toEqual([]);
    expect(report.plan).toMatchObject({ name: 'Roadmap: R', phases: [expect.objectContaining({ id: '1' })] });
  });
});
