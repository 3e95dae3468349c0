/** `debussy init` and `debussy plan new` through the built binary, in fresh temp repositories. */
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debussy, expectNoStack, git, initRepo, REPO_ROOT, tempDir } from '../cli/cli-harness.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  const temp = tempDir('debussy-start-');
  cleanup = () => temp.cleanup();
  // realpath: git reports the top level with symlinks resolved (macOS /var -> /private/var).
  dir = realpathSync(temp.dir);
  initRepo(dir);
});
afterEach(() => cleanup());

/** Every file under `root` (but .git) with its bytes, to compare before and after. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return files;
}

describe('a fresh repository: init, plan new, audit', () => {
  it('ends with a plan that passes the audit, strict mode included', async () => {
    const init = await debussy(['init'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/created\s+\.debussy\/config\.yaml/);
    expect(init.stdout).toMatch(/created\s+\.claude\/commands\/debussy-done\.md/);
    expect(init.stdout).toMatch(/created\s+\.claude\/commands\/debussy-progress\.md/);
    expect(init.stdout).toMatch(/created\s+\.gitignore/);

    const plan = await debussy(['plan', 'new', 'demo', '--phases', '3'], { cwd: dir });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Audit: 0 errors, 0 warnings.');
    expect(readdirSync(path.join(dir, 'plans/demo')).sort()).toEqual(['MASTER_PLAN.md', 'phase-1.md', 'phase-2.md', 'phase-3.md']);

    for (const args of [['audit', 'plans/demo/MASTER_PLAN.md'], ['audit', 'plans/demo', '--strict']]) {
      const audit = await debussy(args, { cwd: dir });
      expect(audit.stdout).toContain('audit ok: Demo (3 phases): 0 error(s), 0 warning(s)');
      expect(audit.code).toBe(0);
    }
    const json = JSON.parse((await debussy(['audit', 'plans/demo', '--json'], { cwd: dir })).stdout) as { findings: unknown[]; ok: boolean };
    expect(json).toMatchObject({ ok: true, findings: [] });
  });

  it("keeps git's hands off the run data: the ignored paths are debussy's", async () => {
    await debussy(['init'], { cwd: dir });
    mkdirSync(path.join(dir, '.debussy/runs/r1'), { recursive: true });
    writeFileSync(path.join(dir, '.debussy/runs/r1/journal.ndjson'), '{}\n');
    writeFileSync(path.join(dir, '.debussy/run.lock'), '{}\n');
    writeFileSync(path.join(dir, '.debussy/project.ndjson'), '{}\n');
    const untracked = git(dir, 'status', '--porcelain', '--untracked-files=all').split('\n').map((line) => line.slice(3));
    expect(untracked.sort()).toEqual(['.claude/commands/debussy-done.md', '.claude/commands/debussy-progress.md', '.debussy/config.yaml', '.gitignore']);
  });
});

describe('debussy init', () => {
  it('writes a config that holds no path of this machine: debussy outside the project is named by its public address', async () => {
    // This checkout's debussy is outside the temp project, as a global install is.
    expect((await debussy(['init'], { cwd: dir })).code).toBe(0);
    const config = readFileSync(path.join(dir, '.debussy/config.yaml'), 'utf8');
    expect(config).not.toContain(REPO_ROOT);
    const header = config.split('\n').slice(0, 4).join('\n');
    expect(header).not.toMatch(/[=\s]\/\S/);
    const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(config.split('\n')[0]).toBe(`# yaml-language-server: $schema=https://raw.githubusercontent.com/debussy-cli/debussy/v${version}/schema/config.schema.json`);
    expect(config).toContain(`# Reference: https://github.com/debussy-cli/debussy/blob/v${version}/docs/configuration.md`);
  });

  it('run twice without --force changes nothing and says so', async () => {
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
    expect((await debussy(['init'], { cwd: dir })).code).toBe(0);
    const before = snapshot(dir);
    const again = await debussy(['init'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(again.stdout).toMatch(/exists, kept\s+\.debussy\/config\.yaml/);
    expect(again.stdout).toMatch(/exists, kept\s+\.claude\/commands\/debussy-done\.md/);
    expect(again.stdout).toMatch(/exists, kept\s+\.claude\/commands\/debussy-progress\.md/);
    expect(again.stdout).toMatch(/exists, kept\s+\.gitignore \(already ignores debussy's run data\)/);
    expect(again.stdout).toContain('Nothing changed');
    expect(again.stdout).not.toMatch(/created|overwritten|updated/);
  });

  it('never overwrites an edited file without --force; with it, restores the file', async () => {
    await debussy(['init'], { cwd: dir });
    const config = path.join(dir, '.debussy/config.yaml');
    const fresh = readFileSync(config, 'utf8');
    writeFileSync(config, 'max_restarts: 5\n');

    const kept = await debussy(['init'], { cwd: dir });
    expect(readFileSync(config, 'utf8')).toBe('max_restarts: 5\n');
    expect(kept.stdout).toContain('Pass --force to overwrite');

    const forced = await debussy(['init', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/overwritten\s+\.debussy\/config\.yaml/);
    expect(forced.stdout).toMatch(/exists, same content\s+\.claude\/commands\/debussy-done\.md/);
    expect(readFileSync(config, 'utf8')).toBe(fresh);
  });

  it('adds only the missing .gitignore lines to an existing file', async () => {
    writeFileSync(path.join(dir, '.gitignore'), 'dist/\n.debussy/runs/\n');
    const result = await debussy(['init'], { cwd: dir });
    expect(result.stdout).toMatch(/updated\s+\.gitignore \(added \.debussy\/run\.lock, \.debussy\/project\.ndjson\)/);
    const text = readFileSync(path.join(dir, '.gitignore'), 'utf8');
    expect(text.startsWith('dist/\n.debussy/runs/\n')).toBe(true);
    expect(text.match(/^\.debussy\/runs\/$/gm)).toHaveLength(1);
  });

  it('without DIR, sets up the repository top level even from a subfolder', async () => {
    mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
    expect((await debussy(['init'], { cwd: path.join(dir, 'src/deep') })).code).toBe(0);
    expect(statSync(path.join(dir, '.debussy/config.yaml')).isFile()).toBe(true);
  });

  it('with a DIR inside a repository, writes there and points out where the config is read from', async () => {
    mkdirSync(path.join(dir, 'sub'));
    const result = await debussy(['init', 'sub'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(statSync(path.join(dir, 'sub/.debussy/config.yaml')).isFile()).toBe(true);
    expect(result.stdout).toContain(`is inside the git repository ${dir}`);
  });

  it.each([
    { name: 'a missing DIR', args: ['init', 'no-such-folder'] },
    { name: 'a file as DIR', args: ['init', 'README.md'], setup: () => writeFileSync(path.join(dir, 'README.md'), 'x') },
  ])('refuses $name with a usage error and creates nothing', async ({ args, setup }) => {
    setup?.();
    const result = await debussy(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not an existing folder/);
    expectNoStack(result);
    expect(() => statSync(path.join(dir, '.debussy'))).toThrow();
  });
});

describe('debussy plan new', () => {
  // Every template at 1, 3 and 50 phases passing the audit with no findings is test/scaffold/plan-templates.test.ts's; this is --template reaching it.
  it.each(['backend'])('the %s template passes the audit', async (template) => {
    const plan = await debussy(['plan', 'new', `p-${template}`, '--template', template, '--phases', '2'], { cwd: dir });
    expect(plan.code).toBe(0);
    const audit = await debussy(['audit', `plans/p-${template}`, '--strict'], { cwd: dir });
    expect(audit.stdout).toContain('0 error(s), 0 warning(s)');
    expect(audit.code).toBe(0);
  });

  it('defaults to three phases of the generic template, in plans/ at the project root', async () => {
    mkdirSync(path.join(dir, 'web'));
    const result = await debussy(['plan', 'new', 'site'], { cwd: path.join(dir, 'web') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Plan "site" (generic template, 3 phases)');
    expect(readdirSync(path.join(dir, 'plans/site')).sort()).toEqual(['MASTER_PLAN.md', 'phase-1.md', 'phase-2.md', 'phase-3.md']);
    expect(readFileSync(path.join(dir, 'plans/site/phase-1.md'), 'utf8')).toContain('(command: `npm test`)');
  });

  it('--dir puts the plan folder elsewhere, relative to the current folder', async () => {
    const result = await debussy(['plan', 'new', 'one', '--phases', '1', '--dir', 'docs/plans'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(readdirSync(path.join(dir, 'docs/plans/one')).sort()).toEqual(['MASTER_PLAN.md', 'phase-1.md']);
  });

  it('refuses an existing plan without --force and overwrites its generated files with it', async () => {
    expect((await debussy(['plan', 'new', 'demo'], { cwd: dir })).code).toBe(0);
    const phase = path.join(dir, 'plans/demo/phase-2.md');
    writeFileSync(phase, 'mine\n');

    const refused = await debussy(['plan', 'new', 'demo'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('plans/demo already exists');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(phase, 'utf8')).toBe('mine\n');

    const forced = await debussy(['plan', 'new', 'demo', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/overwritten\s+plans\/demo\/phase-2\.md/);
    expect(readFileSync(phase, 'utf8')).toContain('# Phase 2: Main work');
  });

  it.each([
    // 0 and 51 are createPlan's refusal (test/scaffold/plan-templates.test.ts 'refuses %s phases'); the others the command line's.
    { args: ['--phases', '0'], error: /--phases 0 is not allowed: expected a whole number from 1 to 50/ },
    { args: ['--phases', 'three'], error: /--phases three is not allowed/ },
    { args: ['--phases', '2.5'], error: /--phases 2.5 is not allowed/ },
    { args: ['--phases', '1e1'], error: /--phases 1e1 is not allowed/ },
    { args: ['--template', 'mobile'], error: /Allowed choices are generic, backend, frontend/ },
    { args: ['--phases'], error: /argument missing/ },
  ])('refuses $args with exit 2 and writes nothing', async ({ args, error }) => {
    const result = await debussy(['plan', 'new', 'demo', ...args], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(error);
    expectNoStack(result);
    expect(() => statSync(path.join(dir, 'plans'))).toThrow();
  });

  // Every unusable name is createPlan's refusal (test/scaffold/plan-templates.test.ts 'refuses the name'); this is one after `--`, the line and the exit code.
  it.each(['-x'])('refuses the plan name %j', async (name) => {
    const result = await debussy(['plan', 'new', '--', name], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a usable plan name/);
    expectNoStack(result);
  });

  it('needs a name', async () => {
    const result = await debussy(['plan', 'new'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing required argument 'name'/);
  });
});
