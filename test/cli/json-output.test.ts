/**
 * `--json` of init, plan new, done, progress and logs through the built binary: one JSON object
 * (NDJSON for logs) on stdout and nothing else there, in the shapes docs/output.md documents.
 * progress and done run inside a real session (the real claude against the scripted server).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject } from '../e2e/e2e-project.js';
import { bash, done, scriptBySession } from '../e2e/session-script.js';
import { debussy, initRepo, tempDir } from './cli-harness.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function project(): string {
  const dir = tempDir('debussy-json-');
  cleanups.push(() => dir.cleanup());
  initRepo(dir.dir);
  return dir.dir;
}

function parseOne(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>;
}

describe('--json outside a run', () => {
  it('init --json: the files written, their outcomes and the permissions chosen', async () => {
    const dir = project();
    const result = await debussy(['init', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const report = parseOne(result.stdout) as { dir: string; projectRoot: string; files: { path: string; outcome: string }[]; permissions: { permission_mode: string } | null };
    expect(report.files.map((f) => [path.relative(dir, f.path), f.outcome])).toContainEqual(['.debussy/config.yaml', 'created']);
    expect(report.permissions?.permission_mode).toBe('acceptEdits');
    const again = parseOne((await debussy(['init', '--json'], { cwd: dir })).stdout) as { files: { outcome: string }[] };
    expect(again.files.every((f) => f.outcome !== 'created')).toBe(true);
  });

  it('plan new --json: the plan written and its audit', async () => {
    const dir = project();
    const result = await debussy(['plan', 'new', 'billing', '--phases', '2', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const report = parseOne(result.stdout) as { name: string; phases: number; template: string; masterPath: string; files: unknown[]; audit: { errors: number; warnings: number; findings: unknown[] } };
    expect([report.name, report.phases, report.template]).toEqual(['billing', 2, 'generic']);
    expect(readFileSync(report.masterPath, 'utf8')).toContain('billing');
    expect(report.files).toHaveLength(3);
    expect(report.audit.errors).toBe(0);
  });

  it('done --json marks a phase in the project; with --verify and a failing gate it marks nothing and exits 1', async () => {
    const dir = project();
    await debussy(['plan', 'new', 'billing', '--phases', '1', '--json'], { cwd: dir });
    const plan = 'plans/billing/MASTER_PLAN.md';
    const marked = await debussy(['done', '--phase', '1', '--plan', plan, '--json'], { cwd: dir });
    expect(marked.code, marked.stderr).toBe(0);
    expect(parseOne(marked.stdout)).toEqual({ phase: '1', status: 'completed', recordedIn: 'project', plan: path.join(dir, plan), verified: false });

    // The generic template's gate is `npm test`, which fails in a folder without package.json.
    const refused = await debussy(['done', '--phase', '1', '--plan', plan, '--verify', '--json'], { cwd: dir });
    expect(refused.code).toBe(1);
    const report = parseOne(refused.stdout) as { recordedIn: unknown; verified: boolean; gates: { passed: boolean }[] };
    expect(report.recordedIn).toBeNull();
    expect(report.verified).toBe(false);
    expect(report.gates.some((g) => !g.passed)).toBe(true);
  });

  it('logs --json with --follow is one usage line, exit 2', async () => {
    const dir = project();
    const result = await debussy(['logs', '--json', '--follow'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--json and --follow cannot be combined');
  });
});

describe('--json in a run', () => {
  it('the agent gets progress and done as JSON; logs --json gives one object per session', async () => {
    const e2e = await E2EProject.create({
      phases: [{ id: '1', title: 'Billing' }],
      script: scriptBySession({ fresh: [bash('debussy progress --phase 1 --message "half way" --json'), bash('debussy done --phase 1 --json'), done()] }),
    });
    cleanups.push(() => e2e.dispose());
    const run = await e2e.run(['run', e2e.planArg]);
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);

    // What the agent's Bash calls printed comes back to the model as tool results.
    const results = e2e.api.requests.flatMap((req) => JSON.stringify(req.body ?? '').match(/\{\\"phase\\":\\"1\\"[^}]*\}/g) ?? []).map((text) => JSON.parse(JSON.parse(`"${text}"`) as string) as Record<string, unknown>);
    const runId = results[0]?.runId;
    expect(typeof runId).toBe('string');
    expect(results).toContainEqual({ phase: '1', runId, recorded: true });
    expect(results).toContainEqual({ phase: '1', status: 'completed', recordedIn: 'run', runId, plan: path.join(e2e.dir, e2e.planArg), verified: false });

    const logs = await e2e.run(['logs', '--json']);
    expect(logs.code, logs.stderr).toBe(0);
    const rows = logs.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { runId: string; phaseId: string; session: string; ended: { outcome: string } | null; inJournal: boolean; text: string | null });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ runId, phaseId: '1', session: '1-01', inJournal: true });
    expect(rows[0]?.ended?.outcome).toBeDefined();
    expect(rows[0]?.text).toContain('debussy done --phase 1 --json');
  }, 120_000);
});
