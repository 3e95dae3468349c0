/**
 * `debussy doctor` through the built binary: a set-up that passes every check, then a failure and a
 * warning, with their lines, fixes, the summary, the exit code and --json. The real claude answers
 * the version check; an isolated HOME and CLAUDE_CONFIG_DIR stand for the user's machine. Each
 * check made to fail or warn on its own (agents codex and gemini, credentials, permissions, hooks,
 * config, webhook) is in test/doctor/doctor-checks.test.ts, in process. The git identity stays
 * here: in process, git would read the real HOME's identity.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { TESTED_CLAUDE_VERSION, checkClaude, compareVersions } from '../../src/doctor/index.js';
import { CLAUDE_BIN } from '../support/claude.js';
import { debussy, expectNoStack, initRepo, REPO_ROOT, tempDir, type CliResult } from './cli-harness.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GOOD_CONFIG = { claude_command: CLAUDE_BIN, permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)'] };

interface World {
  project: string;
  home: string;
  env: Record<string, string | undefined>;
  writeConfig(config: Record<string, unknown>): void;
  doctor(args?: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
}

function world(options: { git?: boolean } = {}): World {
  const base = tempDir('debussy-doctor-');
  cleanups.push(() => base.cleanup());
  const project = path.join(base.dir, 'project');
  const home = path.join(base.dir, 'home');
  mkdirSync(project);
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  if (options.git !== false) initRepo(project);
  const env: Record<string, string | undefined> = {
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    GIT_CONFIG_NOSYSTEM: '1',
    ANTHROPIC_API_KEY: 'sk-ant-doctor-test-secret',
    IS_SANDBOX: '1',
  };
  for (const name of ['ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'CLAUDE_CODE_SIMPLE', 'CLAUDE_CODE_SAFE_MODE']) env[name] = undefined;
  const w: World = {
    project,
    home,
    env,
    writeConfig(config) {
      mkdirSync(path.join(project, '.debussy'), { recursive: true });
      writeFileSync(path.join(project, '.debussy', 'config.yaml'), YAML.stringify(config));
    },
    async doctor(args = [], extra = {}) {
      const result = await debussy(['doctor', ...args], { cwd: project, env: { ...env, ...extra } });
      expectNoStack(result);
      expect(result.stdout + result.stderr).not.toContain('sk-ant-doctor-test-secret');
      return result;
    },
  };
  w.writeConfig(GOOD_CONFIG);
  return w;
}

function lineOf(result: CliResult, prefix: string): string {
  return result.stdout.split('\n').find((line) => line.slice(6).startsWith(prefix)) ?? `(no line starting "${prefix}" in:\n${result.stdout})`;
}

describe('debussy doctor', () => {
  it('passes every check on a machine set up for a run, and exits 0', async () => {
    const w = world();
    const result = await w.doctor();
    expect(result.code, result.stdout).toBe(0);
    expect(lineOf(result, 'claude')).toMatch(new RegExp(`^ok {4}claude ${TESTED_CLAUDE_VERSION.replace(/\./g, '\\.')} at `));
    expect(lineOf(result, 'claude')).toContain('debussy is tested with 2.1.332 (the test suite runs it) and 2.1.197 (its recorded streams)');
    expect(lineOf(result, 'credentials')).toBe('ok    credentials: ANTHROPIC_API_KEY set');
    expect(lineOf(result, 'git')).toBe('ok    git: commits as Test <test@example.com>');
    expect(lineOf(result, 'permissions')).toMatch(/^ok {4}permissions: permission_mode acceptEdits/);
    expect(lineOf(result, 'hooks')).toMatch(/^ok {4}hooks: nothing turns Claude Code's hooks off/);
    expect(lineOf(result, 'config')).toMatch(/^ok {4}config: .*config\.yaml is valid$/);
    expect(lineOf(result, 'notifications')).toBe('ok    notifications: no webhook configured');
    expect(result.stdout).toContain('Ready to run.');
    expect(result.stdout).not.toContain('fix:');
  });

  it('claude not found: FAIL with the install command, exit 3', async () => {
    const w = world();
    w.writeConfig({ ...GOOD_CONFIG, claude_command: '/nonexistent/claude' });
    const result = await w.doctor();
    expect(result.code).toBe(3);
    expect(lineOf(result, 'claude')).toBe('FAIL  claude: "/nonexistent/claude" not found');
    expect(result.stdout).toContain('fix: Install Claude Code (npm install -g @anthropic-ai/claude-code)');
  });

  it('no git identity: a warning naming the fallback author and the git config commands', async () => {
    const w = world();
    const repoConfig = path.join(w.project, '.git', 'config');
    writeFileSync(repoConfig, readFileSync(repoConfig, 'utf8').replace(/\[user\][^[]*/, ''));
    const result = await w.doctor();
    expect(result.code).toBe(0);
    expect(lineOf(result, 'git')).toBe('warn  git: no user.name or user.email configured; debussy\'s commits would be authored by "debussy <debussy@localhost>"');
    expect(result.stdout).toContain('fix: Set them: git config --global user.name "Your Name" && git config --global user.email you@example.com');
    expect(result.stdout).toContain('Ready to run, with 1 warning(s).');
  });

  it('--json: one object with every check, its status and fix', async () => {
    const w = world();
    w.writeConfig({ ...GOOD_CONFIG, claude_command: '/nonexistent/claude' });
    const result = await w.doctor(['--json']);
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as { ok: boolean; failed: number; checks: { id: string; status: string; fix?: string }[] };
    expect(report.ok).toBe(false);
    expect(report.failed).toBe(1);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([['claude', 'fail'], ['auth', 'pass'], ['git', 'pass'], ['permissions', 'pass'], ['hooks', 'pass'], ['config', 'pass'], ['notify', 'pass']]);
    expect(report.checks[0]?.fix).toContain('Install Claude Code');
  });
});

describe('the tested claude version', () => {
  it('is the devDependency the tests run', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['@anthropic-ai/claude-code']?.replace(/^[\^~]/, '')).toBe(TESTED_CLAUDE_VERSION);
  });

  it.each([
    ['2.1.197', '2.1.197', 0],
    ['2.1.10', '2.1.9', 1],
    ['1.9.999', '2.0.0', -1],
    ['2.1', '2.1.0', 0],
  ])('compareVersions(%s, %s) is %i', (a, b, expected) => expect(compareVersions(a, b)).toBe(expected));

  it('a claude that prints no version fails the check', () => {
    expect(checkClaude({ command: 'claude', path: '/bin/claude', version: undefined, versionError: 'exit 1' }).status).toBe('fail');
  });
});
