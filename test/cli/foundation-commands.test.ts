import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { debussy, expectNoStack, git, initRepo, REPO_ROOT, tempDir } from './cli-harness.js';

const VALID_PLAN = path.join(REPO_ROOT, 'test/fixtures/plans/valid');

let template: { dir: string; cleanup(): void };
let work: { dir: string; cleanup(): void };
const plan = 'plans/valid/MASTER_PLAN.md';

// The repository is made once and copied for each test: git's processes, not the tests, were the cost.
beforeAll(() => {
  template = tempDir();
  initRepo(template.dir);
  cpSync(VALID_PLAN, path.join(template.dir, 'plans/valid'), { recursive: true });
  writeFileSync(path.join(template.dir, '.gitignore'), '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n');
  git(template.dir, 'add', '-A');
  git(template.dir, 'commit', '-qm', 'init');
});
afterAll(() => template.cleanup());
beforeEach(() => {
  work = tempDir();
  cpSync(template.dir, work.dir, { recursive: true });
});
afterEach(() => work.cleanup());

describe('debussy --help', () => {
  it('lists every command', async () => {
    const result = await debussy(['--help'], { cwd: work.dir });
    expect(result.code).toBe(0);
    for (const command of ['audit', 'run', 'resume', 'config', 'done', 'progress', 'status', 'history', 'init', 'plan', 'logs']) expect(result.stdout).toMatch(new RegExp(`\\n\\s+${command}\\b`));
  });

  it('rejects an unknown command with exit 2', async () => {
    const result = await debussy(['frobnicate'], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });
});

describe('debussy audit', () => {
  it('passes a clean plan with exit 0', async () => {
    const result = await debussy(['audit', plan], { cwd: work.dir });
    expect(result.stdout).toContain('audit ok');
    expect(result.code).toBe(0);
  });

  it('reports a missing master plan with exit 1', async () => {
    const result = await debussy(['audit', 'plans/nope/MASTER_PLAN.md'], { cwd: work.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('nope/MASTER_PLAN.md');
    expectNoStack(result);
  });

  it('needs its argument (exit 2)', async () => {
    const result = await debussy(['audit'], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("missing required argument 'plan'");
  });
});

function readdirPhase(root: string, id: string): string {
  const master = readFileSync(path.join(root, plan), 'utf8');
  const row = master.split('\n').find((line) => new RegExp(`^\\|\\s*${id}\\s*\\|`).test(line));
  const link = /\]\(([^)]+)\)/.exec(row ?? '');
  if (!link?.[1]) throw new Error(`no row for phase ${id}`);
  return link[1];
}

describe('debussy run --dry-run', () => {
  it('prints the order, dependencies and gates and starts nothing', async () => {
    const result = await debussy(['run', plan, '--dry-run'], { cwd: work.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1\. 1 [\s\S]*2\. 2 [\s\S]*3\. 3 /);
    expect(result.stdout).toContain('depends on: 1');
    expect(result.stdout).toContain('gate ');
    expect(result.stdout).toContain('Dry run: nothing was started.');
    expect(existsSync(path.join(work.dir, '.debussy/runs'))).toBe(false);
  });

  it.each([
    // Every bad value of every flag is resolveConfig's (test/config/resolve-config.test.ts); this is the line and the exit code.
    [['--context-threshold', '150'], '--context-threshold "150" is not allowed: expected a number from 1 to 100'],
  ])('rejects the bad flag value %j with exit 2', async (flags, message) => {
    const result = await debussy(['run', plan, '--dry-run', ...flags], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expectNoStack(result);
  });

  it('rejects a plan that fails the audit with exit 3 and points at debussy audit', async () => {
    writeFileSync(path.join(work.dir, 'plans/bad.md'), '# Bad\n\nno table here\n');
    const result = await debussy(['run', 'plans/bad.md', '--dry-run'], { cwd: work.dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('debussy audit plans/bad.md');
  });
});

describe('configuration errors', () => {
  it('a broken YAML config is one clear line, exit 2', async () => {
    mkdirSync(path.join(work.dir, '.debussy'), { recursive: true });
    writeFileSync(path.join(work.dir, '.debussy/config.yaml'), 'context_threshold: [1,\n');
    const result = await debussy(['config'], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('config.yaml: not valid YAML');
    expectNoStack(result);
  });

  it('an invalid value names file, key, value and what is allowed', async () => {
    mkdirSync(path.join(work.dir, '.debussy'), { recursive: true });
    writeFileSync(path.join(work.dir, '.debussy/config.yaml'), 'context_threshold: 150\n');
    const result = await debussy(['run', plan, '--dry-run'], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('.debussy/config.yaml: context_threshold: 150 is not allowed: expected a number from 1 to 100');
  });
});

describe('debussy done without an active run', () => {
  it('with --verify, marks the phase completed so the next run skips it', async () => {
    const result = await debussy(['done', '--phase', '1', '--plan', plan, '--verify'], { cwd: work.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('marked completed');
    expect(result.stdout).toContain('the next `debussy run` skips it');
    // What the next run does with the mark: test/cli-commands/foundation-commands.test.ts.
  });

  it('without --verify, a claim: the next run verifies the phase by its gates first (anyone can run `debussy done`)', async () => {
    const result = await debussy(['done', '--phase', '1', '--plan', plan], { cwd: work.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('the next `debussy run` runs its gates before it counts as done (--verify runs them now)');
  });

  it('without --plan and no plan run here, errors clearly (exit 2)', async () => {
    // With a plan run here, the last one is used: test/cli-commands/foundation-commands.test.ts.
    const none = await debussy(['done', '--phase', '1'], { cwd: work.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no plan given');
  });

  it('rejects an unknown phase with exit 2 and the valid ids', async () => {
    // The other bad arguments (a status commander refuses, a --report that is not JSON): test/cli-commands/foundation-commands.test.ts.
    const result = await debussy(['done', '--plan', plan, '--phase', '9'], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown phase "9"');
    expect(result.stderr).toContain('Valid phase ids: 1, 2, 3');
    expectNoStack(result);
  });

  it('--verify refuses with exit 1 and shows the failing gate output', async () => {
    const file = path.join(work.dir, 'plans/valid', readdirPhase(work.dir, '1'));
    writeFileSync(file, readFileSync(file, 'utf8').replace('## Gates', '## Gates\n- failing: (command: `echo gate-said-no; exit 3`)'));
    const result = await debussy(['done', '--phase', '1', '--plan', plan, '--verify'], { cwd: work.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('gate failing: FAILED');
    expect(result.stdout).toContain('gate-said-no');
  });
});

describe('progress, status and history', () => {
  it('progress outside a run says so (exit 1)', async () => {
    // Without a message (exit 2): test/cli-commands/foundation-commands.test.ts.
    expect((await debussy(['progress', '--phase', '1', '--message', 'x'], { cwd: work.dir })).code).toBe(1);
  });

  it('status and history with no runs', async () => {
    const status = await debussy(['status'], { cwd: work.dir });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('No debussy run in this project yet');
    expect((await debussy(['history'], { cwd: work.dir })).stdout).toContain('No runs yet');
    // status --json and history --limit 0: test/cli-commands/foundation-commands.test.ts.
    const resume = await debussy(['resume'], { cwd: work.dir });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain('there is no earlier run in this project to resume');
  });
});

describe('debussy run prerequisites (nothing starts, nothing changes)', () => {
  it('a missing claude is exit 3 with the fix', async () => {
    const result = await debussy(['run', plan], { cwd: work.dir, env: { PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('"claude" was not found on PATH');
    expect(existsSync(path.join(work.dir, '.debussy/runs'))).toBe(false);
  });

  it('tracked uncommitted changes are exit 3 unless --allow-dirty', async () => {
    writeFileSync(path.join(work.dir, 'plans/valid/MASTER_PLAN.md'), `${readFileSync(path.join(work.dir, plan), 'utf8')}\n`);
    const env = { PATH: `${path.join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
    const result = await debussy(['run', plan], { cwd: work.dir, env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('uncommitted changes (plans/valid/MASTER_PLAN.md)');
    expect(result.stderr).toContain('--allow-dirty');
    expect(git(work.dir, 'status', '--porcelain')).toBe('M plans/valid/MASTER_PLAN.md');
  });

  it('outside a git repository auto-commit is exit 3', async () => {
    const bare = tempDir();
    try {
      cpSync(VALID_PLAN, path.join(bare.dir, 'plan'), { recursive: true });
      const env = { PATH: `${path.join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, GIT_CEILING_DIRECTORIES: path.dirname(bare.dir) };
      const result = await debussy(['run', 'plan/MASTER_PLAN.md'], { cwd: bare.dir, env });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('auto-commit needs a git repository');
      expect(result.stderr).toContain('--no-auto-commit');
    } finally {
      bare.cleanup();
    }
  });
});
