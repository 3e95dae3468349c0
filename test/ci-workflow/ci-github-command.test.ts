/** `debussy ci github` through the built binary: output, the file it writes, and its refusals. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { debussy, expectNoStack, git, initRepo, tempDir } from '../cli/cli-harness.js';
import { planFiles, type PhaseSpec } from '../e2e/e2e-project.js';

let dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const dir of dirs) dir.cleanup();
  dirs = [];
});

/** A committed repository holding a plan of these phases (plans/e2e/) and a config. */
function project(phases: PhaseSpec[], config = 'model: sonnet\n'): string {
  const made = tempDir('debussy-ci-cmd-');
  dirs.push(made);
  initRepo(made.dir);
  const files = { ...planFiles('CI Plan', phases), '.debussy/config.yaml': config };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(made.dir, file)), { recursive: true });
    writeFileSync(path.join(made.dir, file), text);
  }
  git(made.dir, 'add', '-A');
  git(made.dir, 'commit', '-q', '-m', 'plan');
  return made.dir;
}

const PLAN = 'plans/e2e/MASTER_PLAN.md';
const DIAMOND: PhaseSpec[] = [{ id: '1', title: 'One' }, { id: '2', title: 'Two', dependsOn: ['1'] }, { id: '3', title: 'Three', dependsOn: ['1'] }, { id: '4', title: 'Four', dependsOn: ['2', '3'] }];

describe('debussy ci github', () => {
  it('prints the workflow on stdout; --output writes it and says what it holds and what it needs', async () => {
    const dir = project(DIAMOND);
    const printed = await debussy(['ci', 'github', PLAN], { cwd: dir });
    expect(printed.code, printed.stderr).toBe(0);
    const workflow = YAML.parse(printed.stdout) as { jobs: Record<string, { needs?: string[] }>; env: Record<string, string> };
    expect(Object.keys(workflow.jobs)).toEqual(['phase-1', 'phase-2', 'phase-3', 'phase-4', 'verify', 'push']);
    expect(workflow.jobs['phase-4']?.needs).toEqual(['phase-2', 'phase-3']);
    expect(workflow.env.DEBUSSY_CI_PLAN).toBe(PLAN);

    // From a subfolder too: the plan path in the workflow is relative to the repository root.
    const written = await debussy(['ci', 'github', '../e2e/MASTER_PLAN.md', '--output', '../../.github/workflows/debussy.yml', '--secret', 'CLAUDE_CODE_OAUTH_TOKEN'], { cwd: path.join(dir, 'plans/e2e') });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain('4 phase job(s), then verify and push');
    expect(written.stdout).toContain('add the repository secret CLAUDE_CODE_OAUTH_TOKEN');
    const file = readFileSync(path.join(dir, '.github/workflows/debussy.yml'), 'utf8');
    expect(file).toContain('CLAUDE_CODE_OAUTH_TOKEN: ${{ secrets.CLAUDE_CODE_OAUTH_TOKEN }}');
    expect((YAML.parse(file) as { env: Record<string, string> }).env.DEBUSSY_CI_PLAN).toBe(PLAN);
  });

  it('a phase the master plan marks completed gets no job, and the line says so', async () => {
    const dir = project(DIAMOND);
    const master = path.join(dir, PLAN);
    writeFileSync(master, readFileSync(master, 'utf8').replace('| 1 | [One](phase-1.md) | Pending |', '| 1 | [One](phase-1.md) | Completed |'));
    git(dir, 'commit', '-q', '-am', 'phase 1 done');
    const result = await debussy(['ci', 'github', PLAN, '--output', 'wf.yml'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('3 phase job(s) (phase(s) 1 complete already: no job)');
  });

  it.each([
    { name: 'a plan that fails the audit', phases: [{ id: '1', title: 'One', dependsOn: ['9'] }], config: 'model: sonnet\n', args: [], code: 3, stderr: /9/ },
    { name: 'update_plan_status with phases at once', phases: DIAMOND, config: 'update_plan_status: true\n', args: [], code: 2, stderr: /update_plan_status is on: phases 2 and 3 run at the same time/ },
    { name: 'auto_commit off', phases: DIAMOND, config: 'auto_commit: false\n', args: [], code: 2, stderr: /auto_commit is off/ },
    { name: 'an unknown secret', phases: DIAMOND, config: 'model: sonnet\n', args: ['--secret', 'MY_KEY'], code: 2, stderr: /MY_KEY/ },
  ])('$name: exit $code, one clear message', async ({ phases, config, args, code, stderr }) => {
    const dir = project(phases, config);
    const result = await debussy(['ci', 'github', PLAN, ...args], { cwd: dir });
    expect(result.code, result.stdout + result.stderr).toBe(code);
    expect(result.stderr).toMatch(stderr);
    expect(result.stdout).toBe('');
    expectNoStack(result);
  });

  it('warns when the plan has changes that are not committed: the runners would not see them', async () => {
    const dir = project(DIAMOND);
    writeFileSync(path.join(dir, 'plans/e2e/phase-5.md'), '# new\n');
    const result = await debussy(['ci', 'github', PLAN, '--output', 'wf.yml'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('plans/e2e has uncommitted changes: the jobs run what is pushed to the run branch');
  });

  it('--help ends with Examples of itself', async () => {
    const dir = project(DIAMOND);
    const result = await debussy(['ci', 'github', '--help'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\nExamples:\n')[1]).toMatch(/^ {2}\$ debussy ci github /m);
  });
});

describe('debussy ci keep-work', () => {
  it('commits what a phase left uncommitted, as its own commits would: no credential-like files', async () => {
    const dir = project(DIAMOND);
    writeFileSync(path.join(dir, 'half-done.txt'), 'started\n');
    writeFileSync(path.join(dir, '.env'), 'TOKEN=not-for-git\n');
    const result = await debussy(['ci', 'keep-work', '--phase', '2', '--plan', PLAN], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/phase 2: committed 1 file\(s\) it left uncommitted/);
    expect(result.stderr).toContain('.env');
    expect(git(dir, 'show', '--name-only', '--format=%s', 'HEAD').split('\n')).toEqual(['debussy: phase 2 Two failed', '', 'half-done.txt']);
    expect(git(dir, 'status', '--porcelain')).toBe('?? .env');

    const again = await debussy(['ci', 'keep-work', '--phase', '2', '--plan', PLAN], { cwd: dir });
    expect(again.stdout).toContain('phase 2 left nothing uncommitted');
  });
});
