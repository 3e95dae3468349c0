/**
 * `debussy plan import` through the built binary, in temp git repositories holding this project's
 * fixtures of each format: the plan it writes, what the audit then names, the order a dry run
 * shows (in process), re-imports (source changed: updated; plan edited: refused, naming the file), and bad
 * input (one clear line, exit 2, nothing written; its variants are in import-refusals.test.ts).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeDryRun } from '../../src/cli/dry-run.js';
import { loadProjectConfig } from '../../src/config/index.js';
import { loadAuditedPlan } from '../../src/orchestrator/preflight.js';
import { auditPlan } from '../../src/plan/index.js';
import { importPlan } from '../../src/plan-import/index.js';
import { debussy, expectNoStack, initRepo, REPO_ROOT, tempDir, type CliResult } from '../cli/cli-harness.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plan-import');

let work: { dir: string; cleanup(): void };
beforeEach(() => {
  work = tempDir('debussy-import-');
  initRepo(work.dir);
});
afterEach(() => work.cleanup());

const run = (...args: string[]): Promise<CliResult> => debussy(args, { cwd: work.dir });
const read = (relative: string): string => readFileSync(path.join(work.dir, relative), 'utf8');
const write = (relative: string, text: string): void => {
  mkdirSync(path.dirname(path.join(work.dir, relative)), { recursive: true });
  writeFileSync(path.join(work.dir, relative), text);
};

function useFixture(name: string): void {
  cpSync(path.join(FIXTURES, name), work.dir, { recursive: true });
}

/** A first import, in process (what the binary prints of it is not what these tests look at). */
async function importFirst(source: string): Promise<void> {
  await importPlan({ source: path.join(work.dir, source), projectRoot: work.dir, plansDir: path.join(work.dir, 'plans'), force: false, cwd: work.dir });
}

/** Every file under the repository (but .git) with its text: to show that nothing was written. */
function snapshot(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder)) {
      if (entry === '.git') continue;
      const full = path.join(folder, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files[path.relative(work.dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(work.dir);
  return files;
}

/**
 * The order a dry run shows for the imported plan, each phase as `id:action`, in process: the plan
 * as a run loads it (audited, with the config's gates; an error fails here as it would refuse the
 * run), then the dry run's listing. The binary's dry run is test/cli/foundation-commands.test.ts's.
 */
async function dryRunOrder(master: string): Promise<string[]> {
  const { config } = await loadProjectConfig(work.dir, {});
  const { plan } = await loadAuditedPlan(path.join(work.dir, master), config, work.dir);
  return (await describeDryRun(work.dir, plan, config)).phases.map((phase) => `${phase.id}:${phase.action}`);
}

/** The audit's error count for an imported plan, with the config's gates (what `debussy audit`'s exit code follows). */
async function auditErrors(plan: string): Promise<number> {
  const { config } = await loadProjectConfig(work.dir, {});
  return (await auditPlan(path.join(work.dir, plan), { gateCommands: config.gates })).errors;
}

function withGatesConfig(gates: Record<string, string>): void {
  write('.debussy/config.yaml', `gates:\n${Object.entries(gates).map(([name, command]) => `  "${name}": "${command}"`).join('\n')}\n`);
}

describe('importing each format', () => {
  it('Taskmaster (tagged): phases, dependencies, completed and left-out tasks, gates; the audit names the gate to fill in; then the dry run', async () => {
    useFixture('taskmaster');
    const result = await run('plan', 'import', '.taskmaster/tasks/tasks.json');
    expectNoStack(result);
    expect(result.code).toBe(1); // written, but a gate needs its command before a run
    expect(result.stdout).toContain('Imported .taskmaster/tasks/tasks.json (Taskmaster tasks.json, tag master) into plans/taskmaster:');
    expect(result.stdout).toMatch(/created\s+plans\/taskmaster\/MASTER_PLAN\.md/);
    expect(result.stdout).toContain('  1  Set up the recipe-box package  [Completed]\n     no dependencies; gates: tests (npm test)');
    expect(result.stdout).toContain('  2  Parse recipe files  [In Progress]\n     depends on 1; gates: lint (npm run lint), tests (npx vitest run test/tokens.test.ts)');
    expect(result.stdout).toContain('  4  Export a shopping list  [Pending]\n     depends on 2; no gates');
    expect(result.stdout).toContain('Left out:\n  task 5 "Sync recipes to a phone app" (deferred)\n  task 7 "Print recipe cards" (cancelled)');
    expect(result.stdout).toContain('task 4 depended on task 5, which is deferred and left out: that dependency is dropped; check that phase 4 can run without it');
    expect(result.stdout).toContain('task 3 depends on 6, which the source does not have: that dependency is dropped');
    expect(result.stdout).toContain('plans/taskmaster/phase-3.md:16: error: phase 3: gate "test strategy" has no command');
    expect(result.stdout).toContain('plans/taskmaster/phase-4.md: warning: phase 4 has no gates');
    expect(result.stdout).toContain('Audit: 1 error(s), 1 warning(s).');
    expect(readdirSync(path.join(work.dir, 'plans/taskmaster')).sort()).toEqual(['.debussy-import.json', 'MASTER_PLAN.md', 'phase-1.md', 'phase-2.md', 'phase-3.md', 'phase-4.md']);
    for (const id of ['1', '2', '3', '4']) expect(read(`plans/taskmaster/phase-${id}.md`)).toContain(`Signal completion: \`debussy done --phase ${id}\``);
    // The "## Gates" inside task 1's details stayed text.
    expect(read('plans/taskmaster/phase-1.md')).toContain('\n**Gates**\n- this heading is part of the details, not a gates section\n');

    withGatesConfig({ 'test strategy': 'npm test -- search' });
    const audit = await run('audit', 'plans/taskmaster/MASTER_PLAN.md');
    expect(audit.stdout).toContain('gate test strategy: npm test -- search (from config)');
    expect(audit.stdout).toContain('0 error(s), 1 warning(s)');
    expect(audit.code).toBe(0);
    expect(await dryRunOrder('plans/taskmaster/MASTER_PLAN.md')).toEqual(['1:skip', '2:run', '3:run', '4:run']);
  });

  it('Taskmaster (flat, another tag): clean, and --tag picks the tag', async () => {
    useFixture('taskmaster-flat');
    const flat = await run('plan', 'import', 'tasks.json', '--name', 'units');
    expect(flat.code).toBe(0);
    expect(flat.stdout).toContain('gates: tests (python -m pytest), lint (ruff check .)');
    expect(flat.stdout).toContain('Audit: 0 error(s), 0 warning(s).');
    expect(await dryRunOrder('plans/units/MASTER_PLAN.md')).toEqual(['1:skip', '2:run']);

    useFixture('taskmaster');
    const tagged = await run('plan', 'import', '.taskmaster', '--tag', 'ui-redesign');
    expect(tagged.code).toBe(0);
    expect(tagged.stdout).toContain('(Taskmaster tasks.json, tag ui-redesign) into plans/taskmaster-ui-redesign:');
    expect(read('plans/taskmaster-ui-redesign/MASTER_PLAN.md')).toContain('debussy plan import .taskmaster/tasks/tasks.json --name taskmaster-ui-redesign --tag ui-redesign');
  });

  it('ralph: stories in priority order with their source ids kept in view; the verification commands gate every phase; clean', async () => {
    useFixture('ralph');
    const result = await run('plan', 'import', 'prd.json');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Imported prd.json (ralph prd.json, branch ralph/meal-planner) into plans/meal-planner:');
    expect(result.stdout).toContain('Audit: 0 error(s), 0 warning(s).');
    expect(read('plans/meal-planner/MASTER_PLAN.md')).toContain('| 1 | [Store a meal plan](phase-1.md) | Completed | None | story US-001 |');
    expect(read('plans/meal-planner/MASTER_PLAN.md')).toContain('| 3 | [Show the week as a grid](phase-3.md) | Pending | None | story US-003 |');
    expect(read('plans/meal-planner/phase-3.md')).toContain('Signal completion: `debussy done --phase 3`');
    expect(read('plans/meal-planner/phase-3.md')).toContain(': story US-003 (passes: false)');
    expect(await dryRunOrder('plans/meal-planner/MASTER_PLAN.md')).toEqual(['1:skip', '2:run', '3:run']);
  });

  it('ralph without verificationCommands: "Typecheck passes" is a typecheck gate to fill in; a story with no check is named gate-less', async () => {
    useFixture('ralph-criteria');
    const result = await run('plan', 'import', '.');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('plans/ratings/phase-1.md:15: error: phase 1: gate "typecheck" has no command');
    expect(result.stdout).toContain('plans/ratings/phase-2.md: warning: phase 2 has no gates');
    withGatesConfig({ typecheck: 'npx tsc --noEmit' });
    expect(await auditErrors('plans/ratings')).toBe(0);
  });

  it('GSD: roadmap phases with their plans as tasks, <automated> commands as gates; the task verified in prose is named', async () => {
    useFixture('gsd');
    const result = await run('plan', 'import', '.planning');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Imported .planning/ROADMAP.md (GSD ROADMAP.md) into plans/recipe-box:');
    expect(result.stdout).toContain('  2.1  Index Fix  [Pending]\n     depends on 2; gates: plan 02.1-01 task 1 (npm run build && node dist/cli.js index --check)');
    expect(result.stdout).toContain('  3  Sharing  [Pending]\n     depends on 2, 2.1; no gates');
    expect(result.stdout).toContain('plans/recipe-box/phase-2.md:17: error: phase 2: gate "plan 02-02 task 1" has no command');
    expect(read('plans/recipe-box/phase-2.md')).toContain('- [ ] 02-02: Search command\n  Plan: `.planning/phases/02-search/02-02-PLAN.md`');
    withGatesConfig({ 'plan 02-02 task 1': 'npm test -- test/search.test.ts' });
    expect(await auditErrors('plans/recipe-box')).toBe(0);
    expect(await dryRunOrder('plans/recipe-box/MASTER_PLAN.md')).toEqual(['1:skip', '2:run', '2.1:run', '3:run']);
  });

  it('spec-kit: phases, the Phase Dependencies bullets, ticked tasks, Run-tasks as gates; the prose Independent Test is named', async () => {
    useFixture('speckit');
    const result = await run('plan', 'import', 'specs/004-recipe-import/tasks.md');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  5  Polish & Cross-Cutting Concerns  [Pending]\n     depends on 3, 4; gates: lint (npm run lint)');
    expect(result.stdout).toContain('plans/004-recipe-import/phase-3.md:16: error: phase 3: gate "independent test" has no command');
    expect(read('plans/004-recipe-import/phase-2.md')).toContain('- [x] T003 Fetch a page with a timeout in src/importer/fetch.ts\n- [ ] T004 [P] Find');
    withGatesConfig({ 'independent test': 'npm test -- import-link' });
    expect(await auditErrors('plans/004-recipe-import')).toBe(0);
    expect(await dryRunOrder('plans/004-recipe-import/MASTER_PLAN.md')).toEqual(['1:skip', '2:run', '3:run', '4:run', '5:run']);
  });

  it('--json: what was written, the plan as the audit reads it, and its findings', async () => {
    useFixture('ralph');
    const result = await run('plan', 'import', 'prd.json', '--json');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    const parsed = JSON.parse(result.stdout) as { format: string; name: string; files: { outcome: string }[]; plan: { phases: { id: string }[] }; audit: { errors: number } };
    expect(parsed).toMatchObject({ format: 'ralph', name: 'meal-planner', audit: { errors: 0 } });
    expect(parsed.files.map((file) => file.outcome)).toEqual(['created', 'created', 'created', 'created']);
    expect(parsed.plan.phases.map((phase) => phase.id)).toEqual(['1', '2', '3']);
  });
});

describe('importing again', () => {
  beforeEach(() => useFixture('taskmaster-flat'));

  it('unchanged source: nothing written; changed source: the plan follows it (a new task becomes a phase)', async () => {
    await importFirst('tasks.json');
    const before = snapshot();
    const again = await run('plan', 'import', 'tasks.json');
    expect(again.stdout).toContain('plans/taskmaster is up to date with tasks.json (Taskmaster tasks.json, flat format): nothing written.');
    expect(snapshot()).toEqual(before);

    const source = JSON.parse(read('tasks.json')) as { tasks: Record<string, unknown>[] };
    source.tasks[1] = { ...source.tasks[1], title: 'Scale a recipe to any size' };
    source.tasks.push({ id: 3, title: 'Print a scaled recipe', status: 'pending', dependencies: [2], testStrategy: 'Run `pytest tests/test_print.py`.' });
    write('tasks.json', JSON.stringify(source, null, 2));
    const updated = await run('plan', 'import', 'tasks.json');
    expect(updated.code).toBe(0);
    expect(updated.stdout).toMatch(/updated\s+plans\/taskmaster\/MASTER_PLAN\.md/);
    expect(updated.stdout).toMatch(/updated\s+plans\/taskmaster\/phase-2\.md/);
    expect(updated.stdout).toMatch(/created\s+plans\/taskmaster\/phase-3\.md/);
    expect(updated.stdout).toMatch(/unchanged\s+plans\/taskmaster\/phase-1\.md/);
    expect(read('plans/taskmaster/MASTER_PLAN.md')).toContain('| 3 | [Print a scaled recipe](phase-3.md) | Pending | 2 | task 3 |');
    expect(read('plans/taskmaster/phase-2.md')).toContain('# Phase 2: Scale a recipe to any size');
  });

  it('after the user edited the plan: refused, naming the file, nothing written; --force overwrites', async () => {
    await importFirst('tasks.json');
    write('plans/taskmaster/phase-2.md', `${read('plans/taskmaster/phase-2.md')}\nMy own note.\n`);
    write('tasks.json', read('tasks.json').replace('Scale a recipe', 'Scale recipes'));
    const before = snapshot();
    const refused = await run('plan', 'import', 'tasks.json');
    expectNoStack(refused);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'debussy: not importing over your changes in plans/taskmaster: phase-2.md was edited since the last import\n'
      + '  Move your edits into the source and import again, or pass --force to overwrite them (debussy plan import tasks.json --name taskmaster --force).\n',
    );
    expect(snapshot()).toEqual(before);

    const forced = await run('plan', 'import', 'tasks.json', '--force');
    expect(forced.code).toBe(0);
    expect(read('plans/taskmaster/phase-2.md')).not.toContain('My own note.');
    expect(read('plans/taskmaster/phase-2.md')).toContain('# Phase 2: Scale recipes');
  });

  it('after a run marked a phase complete: not an edit, and the phase stays Completed', async () => {
    await importFirst('tasks.json');
    write('plans/taskmaster/MASTER_PLAN.md', read('plans/taskmaster/MASTER_PLAN.md').replace('[Scale a recipe](phase-2.md) | Pending |', '[Scale a recipe](phase-2.md) | Completed |'));
    write('plans/taskmaster/phase-2.md', read('plans/taskmaster/phase-2.md').replace('- [ ] 2.1: Round quantities', '- [x] 2.1: Round quantities'));
    write('tasks.json', read('tasks.json').replace('Round to sensible kitchen amounts.', 'Round to kitchen amounts.'));
    const again = await run('plan', 'import', 'tasks.json');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('phase 2 stays Completed as the plan has it (the source says "pending")');
    expect(read('plans/taskmaster/MASTER_PLAN.md')).toContain('| 2 | [Scale a recipe](phase-2.md) | Completed | 1 | task 2 |');
    expect(read('plans/taskmaster/phase-2.md')).toContain('Round to kitchen amounts.');
  });
});

describe('what cannot be imported: one line, exit 2, nothing written', () => {
  // Every other refusal (broken JSON, a bad --name, a plan edited or from another source...) is a
  // row of test/plan-import/import-refusals.test.ts, through importPlan in process.
  it('a path that does not exist', async () => {
    const before = snapshot();
    const result = await run('plan', 'import', 'nothere.json');
    expectNoStack(result);
    expect(result.code).toBe(2);
    const [first = '', hint = ''] = result.stderr.split(/(?<=\n)/);
    expect(first).toBe('debussy: nothere.json: no such file or folder\n');
    expect(hint).toMatch(/^ {2}\S/); // the line that says what to do
    expect(result.stdout).toBe('');
    expect(snapshot()).toEqual(before);
  });
});
