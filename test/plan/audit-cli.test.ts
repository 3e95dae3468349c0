/**
 * `debussy audit` through the built binary: what it understood (phases, dependencies with where
 * they are named, gates with their commands, notes, completion signals) in text and JSON, for a
 * plan that fails the audit too, and the config it reads the gates map from (`--config`).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanView } from '../../src/plan/index.js';
import { debussy, expectNoStack, initRepo, REPO_ROOT, tempDir } from '../cli/cli-harness.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plans');

let work: { dir: string; cleanup(): void };

beforeEach(() => {
  work = tempDir('debussy-audit-');
  initRepo(work.dir);
  for (const folder of ['phase-file-checks', 'fenced-gates']) cpSync(path.join(FIXTURES, folder), path.join(work.dir, 'plans', folder), { recursive: true });
});
afterEach(() => work.cleanup());

interface AuditJson {
  plan: PlanView | null;
  errors: number;
  warnings: number;
  ok: boolean;
  findings: { code: string; severity: string; file?: string; line?: number; message: string }[];
}

describe('debussy audit shows what it understood', () => {
  it('in text, for a plan that fails: each phase, then the findings at file:line, exit 1', async () => {
    const result = await debussy(['audit', 'plans/phase-file-checks/MASTER_PLAN.md'], { cwd: work.dir });
    expect(result.code).toBe(1);
    expectNoStack(result);
    const [view = '', rest = ''] = result.stdout.split('\n\n');
    expect(view.split('\n').slice(0, 15)).toEqual([
      'Plan: Ingest (plans/phase-file-checks/MASTER_PLAN.md), 4 phases',
      '  1  Importer  [Pending]',
      '     file: plans/phase-file-checks/phase-1.md',
      '     depends on: none',
      '     gate tests: npm test  [line 11]',
      '     notes: reads none; writes notes/NOTES_ingest_1.md',
      '     completion: debussy done --phase 1 [line 8]',
      '     tasks: 0 of 2 checked',
      '  2  Cleaner  [Pending]',
      '     file: plans/phase-file-checks/phase-2.md',
      '     depends on: 1 (MASTER_PLAN.md:6, phase-2.md:4,14), 7 (phase-2.md:15)',
      '     gate tests: npm test  [line 11]',
      '     notes: reads none; writes notes/NOTES_ingest_2.md',
      '     completion: debussy done --phase 2 [line 8]',
      '     tasks: 0 of 2 checked',
    ]);
    expect(view).toContain('  4  Smart restart  [Pending]\n');
    expect(view).toContain('     completion: debussy done --phase 6D [line 8]\n');
    expect(rest.split('\n')).toEqual([
      'plans/phase-file-checks/phase-2.md:15: error: phase 2 depends on phase 7, which is not in the phase table (known: 1, 2, 3, 4) [unknown-dependency]',
      'plans/phase-file-checks/phase-3.md:4: error: phase 3 depends on phase 9, which is not in the phase table (known: 1, 2, 3, 4) [unknown-dependency]',
      expect.stringMatching(/^plans\/phase-file-checks\/phase-4\.md:8: error: phase 4: the phase file tells the agent to run `debussy done --phase 6D`, .* \[completion-id-mismatch\]$/),
      'audit FAILED: Ingest (4 phases): 3 error(s), 0 warning(s)',
      '',
    ]);
  });

  it('as JSON, for a plan that fails: the same view, the findings, exit 1', async () => {
    const result = await debussy(['audit', 'plans/phase-file-checks/MASTER_PLAN.md', '--json'], { cwd: work.dir });
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as AuditJson;
    const planDir = path.join(work.dir, 'plans/phase-file-checks');
    expect(parsed).toMatchObject({ ok: false, errors: 3, warnings: 0 });
    expect(parsed.plan?.name).toBe('Ingest');
    expect(parsed.plan?.phases.map((phase) => [phase.id, phase.dependsOn])).toEqual([
      ['1', []],
      ['2', ['1', '7']],
      ['3', ['2', '9', '1']],
      ['4', ['1', '2', '3']],
    ]);
    expect(parsed.plan?.phases[1]).toMatchObject({
      id: '2',
      title: 'Cleaner',
      file: path.join(planDir, 'phase-2.md'),
      fileRead: true,
      line: 6,
      status: 'pending',
      statusText: 'Pending',
      dependencies: [
        { id: '1', file: path.join(planDir, 'MASTER_PLAN.md'), line: 6 },
        { id: '1', file: path.join(planDir, 'phase-2.md'), line: 4 },
        { id: '1', file: path.join(planDir, 'phase-2.md'), line: 14 },
        { id: '7', file: path.join(planDir, 'phase-2.md'), line: 15 },
      ],
      gates: [{ name: 'tests', command: 'npm test', commandSource: 'plan', line: 11 }],
      tasks: { total: 2, done: 0 },
      notes: { read: [], write: ['notes/NOTES_ingest_2.md'] },
      completionSignals: [{ id: '2', line: 8 }],
    });
    expect(parsed.plan?.phases[3]?.completionSignals).toEqual([{ id: '6D', line: 8 }]);
    expect(parsed.findings.map((finding) => [finding.code, finding.file === undefined ? null : path.relative(planDir, finding.file), finding.line])).toEqual([
      ['unknown-dependency', 'phase-2.md', 15],
      ['unknown-dependency', 'phase-3.md', 4],
      ['completion-id-mismatch', 'phase-4.md', 8],
    ]);
  });

  it('shows gate commands read from fenced blocks, and a gate without one as null', async () => {
    const result = await debussy(['audit', 'plans/fenced-gates', '--json'], { cwd: work.dir });
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as AuditJson;
    expect(parsed.plan?.phases[0]?.gates.map((gate) => [gate.name, gate.command])).toEqual([
      ['lint', 'npm run lint'],
      ['typecheck', 'npx tsc --noEmit'],
      ['tests', 'npm run test:unit && npm run test:integration'],
      ['audit', 'npm audit --audit-level=high'],
      ['tests', 'npm run test:smoke'],
      ['coverage', null],
    ]);
    expect(parsed.findings.map((finding) => [finding.code, finding.severity, finding.line])).toEqual([
      ['duplicate-gate', 'warning', 36],
      ['gate-without-command', 'error', 37],
    ]);
    const text = await debussy(['audit', 'plans/fenced-gates'], { cwd: work.dir });
    expect(text.stdout).toContain('     gate tests: npm run test:unit && npm run test:integration  [line 27]\n');
    expect(text.stdout).toContain('     gate coverage: (no command)  [line 37]\n');
  });

  it('shows no plan, only the finding, when the master plan is missing (JSON plan null, exit 1)', async () => {
    const result = await debussy(['audit', 'plans/nope/MASTER_PLAN.md', '--json'], { cwd: work.dir });
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as AuditJson;
    expect(parsed.plan).toBeNull();
    expect(parsed.findings.map((finding) => finding.code)).toEqual(['missing-master-plan']);
    const text = await debussy(['audit', 'plans/nope/MASTER_PLAN.md'], { cwd: work.dir });
    expect(text.stdout).not.toContain('Plan:');
    expect(text.stdout).toContain('audit FAILED');
  });
});

describe('debussy audit --config', () => {
  beforeEach(() => {
    mkdirSync(path.join(work.dir, 'ci'));
    writeFileSync(path.join(work.dir, 'ci/debussy.yaml'), 'gates:\n  coverage: npm run coverage\n');
  });

  it('fills a gate without a command from that file\'s gates map, and the audit passes', async () => {
    const result = await debussy(['audit', 'plans/fenced-gates', '--config', 'ci/debussy.yaml'], { cwd: work.dir });
    expect(result.stdout).toContain('     gate coverage: npm run coverage (from config)  [line 37]\n');
    expect(result.stdout).toContain('audit ok: Storefront (2 phases): 0 error(s), 1 warning(s)');
    expect(result.code).toBe(0);
    const json = JSON.parse((await debussy(['audit', 'plans/fenced-gates', '--config', 'ci/debussy.yaml', '--json', '--strict'], { cwd: work.dir })).stdout) as AuditJson;
    expect(json.plan?.phases[0]?.gates.at(-1)).toEqual({ name: 'coverage', command: 'npm run coverage', commandSource: 'config', line: 37 });
    expect(json.ok).toBe(false);
  });

  it('without --config, the project\'s own config is not that file', async () => {
    const result = await debussy(['audit', 'plans/fenced-gates'], { cwd: work.dir });
    expect(result.stdout).toContain('     gate coverage: (no command)  [line 37]\n');
    expect(result.code).toBe(1);
  });

  it('names a config file that does not exist in one line, exit 2', async () => {
    const result = await debussy(['audit', 'plans/fenced-gates', '--config', 'ci/missing.yaml'], { cwd: work.dir });
    expect(result).toMatchObject({ code: 2 });
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('missing.yaml');
    expectNoStack(result);
  });
});
