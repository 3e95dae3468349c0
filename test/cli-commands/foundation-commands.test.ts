/**
 * The foundation commands' decisions, through the command line's own code in this process:
 * `main` (src/cli/main.ts) parses the arguments, runs the command and turns its errors into the
 * exit code and the line, as the binary does, without a node start per command. What only the
 * binary shows (its exit code and printed line, once per command line) stays in
 * test/cli/foundation-commands.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureCommand } from '../support/loop-output.js';

const VALID_PLAN = path.resolve(import.meta.dirname, '../fixtures/plans/valid');
const plan = 'plans/valid/MASTER_PLAN.md';

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/**
 * `debussy ARGS` in `cwd`, in this process: what it wrote on stdout and stderr, and the exit code
 * it set (restored after).
 */
async function debussy(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CommandResult> {
  const savedExitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    const { stdout, stderr } = await captureCommand(options.cwd, () => main(['node', 'debussy', ...args]), options.env);
    return { code: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    process.exitCode = savedExitCode;
  }
}

function expectNoStack(result: CommandResult): void {
  if (/\n\s+at .+:\d+:\d+/.test(result.stderr)) throw new Error(`stack trace printed:\n${result.stderr}`);
}

let template: string;
let dir: string;

// The repository is made once and copied for each test: git's processes, not the tests, were the cost.
beforeAll(() => {
  template = mkdtempSync(path.join(os.tmpdir(), 'debussy-commands-'));
  git(template, 'init', '-q', '-b', 'main');
  git(template, 'config', 'user.email', 'test@example.com');
  git(template, 'config', 'user.name', 'Test');
  cpSync(VALID_PLAN, path.join(template, 'plans/valid'), { recursive: true });
  writeFileSync(path.join(template, '.gitignore'), '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n');
  git(template, 'add', '-A');
  git(template, 'commit', '-qm', 'init');
});
afterAll(() => rmSync(template, { recursive: true, force: true }));
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-commands-'));
  cpSync(template, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function phaseFile(id: string): string {
  const master = readFileSync(path.join(dir, plan), 'utf8');
  const row = master.split('\n').find((line) => new RegExp(`^\\|\\s*${id}\\s*\\|`).test(line));
  const link = /\]\(([^)]+)\)/.exec(row ?? '');
  if (!link?.[1]) throw new Error(`no row for phase ${id}`);
  return path.join(dir, 'plans/valid', link[1]);
}

describe('debussy audit', () => {
  it('reports an unknown dependency and a gate without command, as JSON with exit 1', async () => {
    const master = path.join(dir, plan);
    writeFileSync(master, readFileSync(master, 'utf8').replace('| Phase 2 |', '| Phase 2, 7 |'));
    const phase1 = phaseFile('1');
    writeFileSync(phase1, readFileSync(phase1, 'utf8').replace('## Gates', '## Gates\n- coverage: no decrease'));
    const result = await debussy(['audit', plan, '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as { ok: boolean; errors: number; findings: { message: string; severity: string; line?: number }[] };
    expect(parsed.ok).toBe(false);
    expect(parsed.findings.some((f) => f.severity === 'error' && f.message.includes('7'))).toBe(true);
    expect(parsed.findings.some((f) => f.severity === 'error' && f.message.includes('coverage') && typeof f.line === 'number')).toBe(true);
    // The text form of a finding (file:line: error: ...) is formatFinding's (test/plan/audit.test.ts), printed by the binary in test/plan/foreign-format.test.ts.
  });
});

describe('debussy run --dry-run', () => {
  it('with --json prints one dry_run object and nothing else', async () => {
    // Phase 1 marked done (its gates verified) outside a run: the listing says it would be skipped.
    expect((await debussy(['done', '--phase', '1', '--plan', plan, '--verify'], { cwd: dir })).code).toBe(0);
    const result = await debussy(['run', plan, '--dry-run', '--json', '--max-restarts', '0'], { cwd: dir });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const dry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(dry).toMatchObject({ type: 'dry_run', planName: 'Greeting Service', maxRestarts: 0, oneShot: true, contextThreshold: 80 });
    expect(dry.phases).toMatchObject([
      { id: '1', action: 'skip', dependsOn: [], gates: [{ name: 'build', command: 'true', fromConfig: false }, { name: 'lint', command: 'echo lint ok', fromConfig: false }] },
      { id: '2', action: 'run', dependsOn: ['1'] },
      { id: '3', action: 'run', dependsOn: ['2'] },
    ]);
    expect(Number.isNaN(Date.parse(String(dry.ts)))).toBe(false);
    expect(existsSync(path.join(dir, '.debussy/runs'))).toBe(false);
  });

  it("warns, as the run would, when the project's claude settings turn every hook off", async () => {
    mkdirSync(path.join(dir, '.claude'), { recursive: true });
    writeFileSync(path.join(dir, '.claude/settings.json'), JSON.stringify({ disableAllHooks: true }));
    const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'no-user-config') };
    const text = await debussy(['run', plan, '--dry-run'], { cwd: dir, env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/warning: \S*\.claude\/settings\.json sets disableAllHooks: debussy's hooks are off in its sessions/);
    const json = await debussy(['run', plan, '--dry-run', '--json'], { cwd: dir, env });
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings.join('\n')).toContain('sets disableAllHooks');
  });
});

describe('debussy config', () => {
  it('shows values and their sources; flags win over the file', async () => {
    mkdirSync(path.join(dir, '.debussy'), { recursive: true });
    writeFileSync(path.join(dir, '.debussy/config.yaml'), 'max_restarts: 5\ncontext_treshold: 70\n');
    const result = await debussy(['config', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { values: Record<string, { value: unknown; source: string }> };
    expect(parsed.values.max_restarts).toEqual({ value: 5, source: 'file' });
    expect(parsed.values.context_threshold).toEqual({ value: 80, source: 'default' });
    expect(result.stderr).toContain('did you mean "context_threshold"');
    const dry = await debussy(['run', plan, '--dry-run', '--max-restarts', '1'], { cwd: dir });
    expect(dry.stdout).toContain('max restarts 1');
  });
});

describe('debussy done without an active run: what the next run does with the mark', () => {
  it('with --verify, the next run skips the phase', async () => {
    expect((await debussy(['done', '--phase', '1', '--plan', plan, '--verify'], { cwd: dir })).code).toBe(0);
    const dry = await debussy(['run', plan, '--dry-run'], { cwd: dir });
    expect(dry.stdout).toMatch(/1\. 1 .*\[skip: marked done with `debussy done --verify`/);
  });

  it('without --verify, a claim: the next run verifies the phase by its gates first, unless --trust-completed', async () => {
    expect((await debussy(['done', '--phase', '1', '--plan', plan], { cwd: dir })).code).toBe(0);
    const dry = await debussy(['run', plan, '--dry-run'], { cwd: dir });
    expect(dry.stdout).toMatch(/1\. 1 .*\[verify again: marked done with `debussy done` at \S+ without --verify\]/);
    const trusted = await debussy(['run', plan, '--dry-run', '--trust-completed'], { cwd: dir });
    expect(trusted.stdout).toMatch(/1\. 1 .*\[skip: marked done .* without --verify; taken as done \(--trust-completed\)\]/);
  });

  it('a failed --verify marks nothing: the next run does not skip the phase', async () => {
    const file = phaseFile('1');
    writeFileSync(file, readFileSync(file, 'utf8').replace('## Gates', '## Gates\n- failing: (command: `echo gate-said-no; exit 3`)'));
    expect((await debussy(['done', '--phase', '1', '--plan', plan, '--verify'], { cwd: dir })).code).toBe(1);
    const dry = await debussy(['run', plan, '--dry-run'], { cwd: dir });
    expect(dry.stdout).not.toContain('skip: marked done');
  });

  it('uses the last plan run here when --plan is omitted', async () => {
    await debussy(['done', '--phase', '1', '--plan', plan], { cwd: dir });
    const again = await debussy(['done', '--phase', '2'], { cwd: dir });
    expect(again.code).toBe(0);
  });

  it.each([
    [['--phase', '1', '--status', 'finished'], "argument 'finished' is invalid", 'completed, blocked, failed'],
    [['--phase', '1', '--report', '{bad'], '--report is not valid JSON', ''],
  ])('rejects %j with exit 2', async (args, message, extra) => {
    const result = await debussy(['done', '--plan', plan, ...args], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain(extra);
    expectNoStack(result);
  });
});

describe('progress, status and history with no runs', () => {
  it('progress without a message is exit 2', async () => {
    const noMessage = await debussy(['progress', '--phase', '1'], { cwd: dir });
    expect(noMessage.code).toBe(2);
    expect(noMessage.stderr).toContain('progress needs a message');
  });

  it('status --json is a null run; history --limit 0 is exit 2', async () => {
    expect(JSON.parse((await debussy(['status', '--json'], { cwd: dir })).stdout)).toEqual({ run: null });
    expect((await debussy(['history', '--limit', '0'], { cwd: dir })).code).toBe(2);
  });
});
