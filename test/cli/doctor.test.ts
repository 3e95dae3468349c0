/**
 * `debussy doctor` through the built binary: a set-up that passes every check, then each check made
 * to fail (or warn) on its own, with its line, its fix, the exit code and --json. The real claude
 * answers the version check; an isolated HOME and CLAUDE_CONFIG_DIR stand for the user's machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_BIN, CODEX_VERSION } from '../support/codex.js';
import { GEMINI_BIN, GEMINI_VERSION } from '../support/gemini.js';
import { TESTED_CLAUDE_VERSION, TESTED_CLAUDE_VERSIONS_TEXT, checkClaude, compareVersions } from '../../src/doctor/index.js';
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

  it('agent codex: the Codex CLI and its credentials are checked instead of claude (tested version, login or OPENAI_API_KEY), exit 0', async () => {
    const w = world();
    w.writeConfig({ agent: 'codex', codex_command: CODEX_BIN });
    const result = await w.doctor([], { OPENAI_API_KEY: 'sk-doctor-openai-secret', ANTHROPIC_API_KEY: undefined });
    expect(result.code, result.stdout).toBe(0);
    expect(lineOf(result, 'codex')).toMatch(new RegExp(`^ok {4}codex ${CODEX_VERSION.replace(/\./g, '\\.')} at .*; debussy is tested with ${CODEX_VERSION.replace(/\./g, '\\.')}$`));
    expect(lineOf(result, 'credentials')).toBe('ok    credentials: OPENAI_API_KEY set');
    expect(result.stdout).not.toMatch(/^\S+ +claude/m);
    expect(result.stdout).not.toContain('sk-doctor-openai-secret');
  });

  it('agent codex without codex or credentials: FAIL for each with its fix, exit 3', async () => {
    const w = world();
    w.writeConfig({ agent: 'codex', codex_command: '/nonexistent/codex' });
    const result = await w.doctor([], { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, CODEX_HOME: path.join(w.home, 'no-codex-home') });
    expect(result.code).toBe(3);
    expect(lineOf(result, 'codex')).toBe('FAIL  codex: "/nonexistent/codex" not found (agent: codex)');
    expect(result.stdout).toContain('fix: Install the Codex CLI (npm install -g @openai/codex)');
    expect(lineOf(result, 'credentials')).toBe('FAIL  credentials: no OPENAI_API_KEY and no Codex CLI login found');
  });

  it('agent gemini: the Gemini CLI and its credentials are checked instead of claude (tested version, GEMINI_API_KEY), exit 0', async () => {
    const w = world();
    w.writeConfig({ agent: 'gemini', gemini_command: GEMINI_BIN });
    const result = await w.doctor([], { GEMINI_API_KEY: 'doctor-gemini-secret', ANTHROPIC_API_KEY: undefined });
    expect(result.code, result.stdout).toBe(0);
    expect(lineOf(result, 'gemini')).toMatch(new RegExp(`^ok {4}gemini ${GEMINI_VERSION.replace(/\./g, '\\.')} at .*; debussy is tested with ${GEMINI_VERSION.replace(/\./g, '\\.')}$`));
    expect(lineOf(result, 'credentials')).toBe('ok    credentials: GEMINI_API_KEY set');
    expect(result.stdout).not.toMatch(/^\S+ +claude/m);
    expect(result.stdout).not.toContain('doctor-gemini-secret');
  });

  it('agent gemini without gemini or credentials: FAIL for each with its fix, exit 3', async () => {
    const w = world();
    w.writeConfig({ agent: 'gemini', gemini_command: '/nonexistent/gemini' });
    const result = await w.doctor([], { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined, GOOGLE_APPLICATION_CREDENTIALS: undefined, ANTHROPIC_API_KEY: undefined, GEMINI_CLI_HOME: path.join(w.home, 'no-gemini-home') });
    expect(result.code).toBe(3);
    expect(lineOf(result, 'gemini')).toBe('FAIL  gemini: "/nonexistent/gemini" not found (agent: gemini)');
    expect(result.stdout).toContain('fix: Install the Gemini CLI (npm install -g @google/gemini-cli)');
    expect(lineOf(result, 'credentials')).toBe('FAIL  credentials: no GEMINI_API_KEY and no Gemini CLI login found');
  });

  it('claude not found: FAIL with the install command, exit 3', async () => {
    const w = world();
    w.writeConfig({ ...GOOD_CONFIG, claude_command: '/nonexistent/claude' });
    const result = await w.doctor();
    expect(result.code).toBe(3);
    expect(lineOf(result, 'claude')).toBe('FAIL  claude: "/nonexistent/claude" not found');
    expect(result.stdout).toContain('fix: Install Claude Code (npm install -g @anthropic-ai/claude-code)');
  });

  it('claude older than the tested version: a warning with the update command, exit 0', async () => {
    const w = world();
    // A claude that only answers --version, as an old release would.
    const old = path.join(w.home, 'old-claude');
    writeFileSync(old, '#!/bin/sh\necho "1.0.3 (Claude Code)"\n', { mode: 0o755 });
    w.writeConfig({ ...GOOD_CONFIG, claude_command: old });
    const result = await w.doctor();
    expect(result.code).toBe(0);
    expect(lineOf(result, 'claude')).toBe(`warn  claude 1.0.3 at ${old}, older than every version debussy is tested with: ${TESTED_CLAUDE_VERSIONS_TEXT}`);
    expect(result.stdout).toContain('fix: Update it');
  });

  it('no API key and no login: FAIL; a login in claude\'s config folder passes without showing it', async () => {
    const w = world();
    const missing = await w.doctor([], { ANTHROPIC_API_KEY: undefined });
    expect(missing.code).toBe(3);
    expect(lineOf(missing, 'credentials')).toBe('FAIL  credentials: no ANTHROPIC_API_KEY and no Claude Code login found');
    expect(missing.stdout).toContain('fix: Run `claude` once and log in (/login), or set ANTHROPIC_API_KEY');

    writeFileSync(path.join(w.home, '.claude', '.credentials.json'), JSON.stringify({ claudeAiOauth: { accessToken: 'sk-ant-doctor-test-secret' } }));
    const loggedIn = await w.doctor([], { ANTHROPIC_API_KEY: undefined });
    expect(loggedIn.code).toBe(0);
    expect(lineOf(loggedIn, 'credentials')).toBe(`ok    credentials: logged in to Claude Code (${path.join(w.home, '.claude', '.credentials.json')})`);
  });

  it('no git identity: a warning naming the fallback author and the git config commands', async () => {
    const w = world();
    const repoConfig = path.join(w.project, '.git', 'config');
    writeFileSync(repoConfig, readFileSync(repoConfig, 'utf8').replace(/\[user\][^[]*/, ''));
    const result = await w.doctor();
    expect(result.code).toBe(0);
    expect(lineOf(result, 'git')).toBe('warn  git: no user.name or user.email configured; debussy\'s commits would be authored by "debussy <debussy@localhost>"');
    expect(result.stdout).toContain('fix: Set them: git config --global user.name "Your Name" && git config --global user.email you@example.com');
  });

  it('not a git repository with auto_commit on: FAIL, exit 3', async () => {
    const w = world({ git: false });
    const result = await w.doctor();
    expect(result.code).toBe(3);
    expect(lineOf(result, 'git')).toBe('FAIL  git: not inside a git repository, and auto_commit is on');
  });

  it('permissions that refuse file edits: FAIL; Claude Code settings that allow them pass', async () => {
    const w = world();
    w.writeConfig({ claude_command: CLAUDE_BIN });
    const refused = await w.doctor();
    expect(refused.code).toBe(3);
    expect(lineOf(refused, 'permissions')).toMatch(/^FAIL {2}permissions: claude would refuse the agent's file edits \(permission_mode unset/);
    expect(refused.stdout).toContain('fix: Set permission_mode: acceptEdits and allowed_tools');

    mkdirSync(path.join(w.project, '.claude'));
    writeFileSync(path.join(w.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash(debussy:*)'] } }));
    const allowed = await w.doctor();
    expect(lineOf(allowed, 'permissions')).toMatch(/^ok {4}permissions: permission_mode acceptEdits/);
  });

  it.skipIf(process.getuid?.() !== 0)('as root, skipping permission checks outside a sandbox: FAIL', async () => {
    const w = world();
    w.writeConfig({ ...GOOD_CONFIG, permission_mode: 'bypassPermissions' });
    const result = await w.doctor([], { IS_SANDBOX: undefined });
    expect(result.code).toBe(3);
    expect(lineOf(result, 'permissions')).toMatch(/^FAIL {2}permissions: running as root with permission checks skipped/);
  });

  it("Claude Code's bare mode (--bare, CLAUDE_CODE_SIMPLE) or disableAllHooks: a warning saying what is lost and the fix, exit 0", async () => {
    const w = world();
    w.writeConfig({ ...GOOD_CONFIG, claude_args: ['--bare'] });
    const bare = await w.doctor([], { CLAUDE_CODE_SIMPLE: '1' });
    expect(bare.code, bare.stdout).toBe(0);
    expect(lineOf(bare, 'hooks')).toMatch(/^warn {2}hooks: --bare in claude_args \(Claude Code's bare mode\); CLAUDE_CODE_SIMPLE=1 in the environment \(Claude Code's bare mode\): debussy's hooks are off in its sessions: no stop guard/);
    expect(bare.stdout).toContain('fix: To keep them on, take --bare and --safe-mode out of claude_args, unset CLAUDE_CODE_SIMPLE');
    expect(bare.stdout).toContain('Ready to run, with 1 warning(s).');
    w.writeConfig(GOOD_CONFIG);
    writeFileSync(path.join(w.home, '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    const disabled = await w.doctor();
    expect(lineOf(disabled, 'hooks')).toMatch(/^warn {2}hooks: \S*settings\.json sets disableAllHooks: debussy's hooks are off/);
  });

  it('an invalid config: FAIL naming the key, exit 3', async () => {
    const w = world();
    w.writeConfig({ ...GOOD_CONFIG, context_threshold: 150 });
    const result = await w.doctor();
    expect(result.code).toBe(3);
    expect(lineOf(result, 'config')).toMatch(/^FAIL {2}config: .*context_threshold/);
  });

  it('a webhook nobody answers: FAIL; one that answers passes (a HEAD, no notification sent)', async () => {
    const w = world();
    const methods: string[] = [];
    const server: Server = createServer((req, res) => {
      methods.push(req.method ?? '');
      res.writeHead(405).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;

    w.writeConfig({ ...GOOD_CONFIG, notify_webhook: `http://user:sk-ant-doctor-test-secret@127.0.0.1:${port}/topic` });
    const up = await w.doctor();
    expect(up.code).toBe(0);
    expect(lineOf(up, 'notifications')).toBe(`ok    notifications: the webhook at http://127.0.0.1:${port} answers`);
    expect(methods).toEqual(['HEAD']);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    w.writeConfig({ ...GOOD_CONFIG, notify_webhook: `http://127.0.0.1:${closedPort}/topic` });
    const down = await w.doctor();
    expect(down.code).toBe(3);
    expect(lineOf(down, 'notifications')).toBe(`FAIL  notifications: the webhook at http://127.0.0.1:${closedPort} is not reachable (ECONNREFUSED)`);
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
