/**
 * Another tool's plan given to `debussy audit`, `run` and `ci github` through the built binary:
 * the exit code and the lines the user sees, once per command. Every format, folder and path
 * variant is shown in process by test/plan/foreign-plan-refusal.test.ts (the audit's finding and
 * loadAuditedPlan's refusal, which these commands print).
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debussy, expectNoStack, initRepo, REPO_ROOT, tempDir } from '../cli/cli-harness.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plan-import');

describe('debussy audit and run name another tool\'s plan (built binary)', () => {
  let work: { dir: string; cleanup(): void };
  beforeEach(() => {
    work = tempDir('debussy-foreign-');
    initRepo(work.dir);
    for (const fixture of ['taskmaster', 'ralph', 'gsd']) cpSync(path.join(FIXTURES, fixture), work.dir, { recursive: true });
  });
  afterEach(() => work.cleanup());

  it('audit .planning: "this is a GSD ROADMAP.md" with the import command, exit 1', async () => {
    const result = await debussy(['audit', '.planning'], { cwd: work.dir });
    expectNoStack(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`.planning/ROADMAP.md: error: this is a GSD ROADMAP.md, not a debussy master plan; \`debussy plan import .planning/ROADMAP.md\` turns it into one (see ${path.join(REPO_ROOT, 'docs/plan-format.md')}) [foreign-plan-format]`);
    expect(result.stdout).not.toContain('no phase table');
  });

  it('audit --json: one finding, code foreign-plan-format, no plan', async () => {
    const result = await debussy(['audit', 'prd.json', '--json'], { cwd: work.dir });
    const parsed = JSON.parse(result.stdout) as { plan: unknown; findings: { code: string; file: string }[] };
    expect(parsed.plan).toBeNull();
    expect(parsed.findings.map((finding) => finding.code)).toEqual(['foreign-plan-format']);
  });

  it('run .taskmaster (and --dry-run): refused before anything starts, naming the Taskmaster tasks.json and the import, exit 3', async () => {
    const file = '.taskmaster/tasks/tasks.json';
    for (const args of [['run', '.taskmaster'], ['run', '.taskmaster', '--dry-run']]) {
      const result = await debussy(args, { cwd: work.dir });
      expectNoStack(result);
      expect(result.code).toBe(3);
      // The hint names the import, not `debussy audit`, which would only say the same again.
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        `debussy: ${file} is a Taskmaster tasks.json, not a debussy master plan`,
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
});
