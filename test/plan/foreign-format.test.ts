/**
 * Other tools' plans where debussy expects a master plan: recognised and named (detectFormat,
 * and `debussy audit` / `debussy run` through the built binary) instead of the markdown hint "no
 * phase table", which every one of them got before, JSON included. And the audit's warning for a
 * phase without gates, which debussy can only take the agent's word for.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectFormat, jsonFormat } from '../../src/plan/foreign-format.js';
import { checkPlan } from '../../src/plan/audit.js';
import type { Phase, PhaseFile, Plan } from '../../src/plan/index.js';
import { debussy, expectNoStack, initRepo, REPO_ROOT, tempDir } from '../cli/cli-harness.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plan-import');
const fixtureText = (relative: string): string => readFileSync(path.join(FIXTURES, relative), 'utf8');

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

describe('debussy audit and run name another tool\'s plan (built binary)', () => {
  let work: { dir: string; cleanup(): void };
  beforeEach(() => {
    work = tempDir('debussy-foreign-');
    initRepo(work.dir);
    for (const fixture of ['taskmaster', 'ralph', 'gsd', 'speckit']) cpSync(path.join(FIXTURES, fixture), work.dir, { recursive: true });
  });
  afterEach(() => work.cleanup());

  const cases = [
    { given: '.taskmaster/tasks/tasks.json', file: '.taskmaster/tasks/tasks.json', name: 'Taskmaster tasks.json' },
    { given: '.taskmaster', file: '.taskmaster/tasks/tasks.json', name: 'Taskmaster tasks.json' },
    { given: 'prd.json', file: 'prd.json', name: 'ralph prd.json' },
    { given: '.planning/ROADMAP.md', file: '.planning/ROADMAP.md', name: 'GSD ROADMAP.md' },
    { given: '.planning', file: '.planning/ROADMAP.md', name: 'GSD ROADMAP.md' },
    { given: 'specs/004-recipe-import/tasks.md', file: 'specs/004-recipe-import/tasks.md', name: 'spec-kit tasks.md' },
  ];

  it.each(cases)('audit $given: "this is a $name" with the import command, exit 1', async ({ given, file, name }) => {
    const result = await debussy(['audit', given], { cwd: work.dir });
    expectNoStack(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${file}: error: this is a ${name}, not a debussy master plan; \`debussy plan import ${file}\` turns it into one (see ${path.join(REPO_ROOT, 'docs/plan-format.md')}) [foreign-plan-format]`);
    expect(result.stdout).not.toContain('no phase table');
  });

  it('audit --json: one finding, code foreign-plan-format, no plan', async () => {
    const result = await debussy(['audit', 'prd.json', '--json'], { cwd: work.dir });
    const parsed = JSON.parse(result.stdout) as { plan: unknown; findings: { code: string; file: string }[] };
    expect(parsed.plan).toBeNull();
    expect(parsed.findings.map((finding) => finding.code)).toEqual(['foreign-plan-format']);
  });

  it.each(cases)('run $given (and --dry-run): refused before anything starts, naming the $name and the import, exit 3', async ({ given, file, name }) => {
    for (const args of [['run', given], ['run', given, '--dry-run']]) {
      const result = await debussy(args, { cwd: work.dir });
      expectNoStack(result);
      expect(result.code).toBe(3);
      // The hint names the import, not `debussy audit`, which would only say the same again.
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        `debussy: ${file} is a ${name}, not a debussy master plan`,
        `  Run \`debussy plan import ${file}\`: it writes a debussy plan from it under plans/ and prints the \`debussy run\` command for that plan (see ${path.join(REPO_ROOT, 'docs/plan-format.md')}).`,
      ]);
    }
  });

  it('ci github prd.json: the same refusal', async () => {
    const result = await debussy(['ci', 'github', 'prd.json'], { cwd: work.dir });
    expectNoStack(result);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('debussy: prd.json is a ralph prd.json, not a debussy master plan\n  Run `debussy plan import prd.json`');
  });

  it('a GSD roadmap whose progress table has a Phase column is named too, not read as a plan of unlinked rows', async () => {
    const result = await debussy(['audit', '.planning/ROADMAP.md'], { cwd: work.dir });
    expect(result.stdout).not.toContain('unparseable-row');
    expect(result.stdout.match(/error:/g)).toHaveLength(1);
  });

  it('a debussy plan named ROADMAP.md is still a debussy plan', async () => {
    mkdirSync(path.join(work.dir, 'plans/r'), { recursive: true });
    writeFileSync(path.join(work.dir, 'plans/r/ROADMAP.md'), '# Roadmap: R\n\n| Phase | Title |\n|---|---|\n| 1 | [One](phase-1.md) |\n\n### Phase 1: One\n**Goal**: x\n');
    writeFileSync(path.join(work.dir, 'plans/r/phase-1.md'), '# Phase 1: One\n\n## Gates\n- tests: `npm test`\n\nWrite `notes/r.md`.\n');
    const result = await debussy(['audit', 'plans/r/ROADMAP.md'], { cwd: work.dir });
    expect(result.stdout).toContain('audit ok: Roadmap: R (1 phases): 0 error(s), 0 warning(s)');
  });
});
