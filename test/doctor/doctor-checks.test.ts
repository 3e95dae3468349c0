/**
 * `debussy doctor`'s checks made to fail (or warn) one at a time, in process: the facts gathered
 * from an isolated project, HOME and environment (gather-facts.ts), then the verdict (checks.ts),
 * as doctorCommand composes them. test/cli/doctor.test.ts runs the built binary for what only the
 * command shows: the lines it prints with their marks and fixes, the summary, the exit code, --json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { hooksOffSources } from '../../src/agent/claude/hooks-off.js';
import {
  checkAuth, checkClaude, checkCodex, checkCodexAuth, checkConfig, checkGemini, checkGeminiAuth, checkGit, checkHooks, checkNotify, checkPermissions,
  gatherAuth, gatherClaude, gatherCodex, gatherCodexAuth, gatherConfig, gatherGemini, gatherGeminiAuth, gatherGit, gatherNotify, gatherPermissions,
  TESTED_CLAUDE_VERSIONS_TEXT, type DoctorCheck,
} from '../../src/doctor/index.js';
import { CLAUDE_BIN } from '../support/claude.js';
import { CODEX_BIN, CODEX_VERSION } from '../support/codex.js';
import { GEMINI_BIN, GEMINI_VERSION } from '../support/gemini.js';
import { initRepo, tempDir } from '../cli/cli-harness.js';

const SECRET = 'sk-ant-doctor-test-secret';
const GOOD_CONFIG = { claude_command: CLAUDE_BIN, permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)'] };
const escaped = (version: string): string => version.replace(/\./g, '\\.');

interface World {
  project: string;
  home: string;
  env: NodeJS.ProcessEnv;
  writeConfig(config: Record<string, unknown>): void;
  /** The project's config as the doctor reads it, with its own check. */
  config(): ReturnType<typeof gatherConfig>;
}

/** An isolated project and HOME (the binary tests' world), given to `test` and removed after it. */
async function inWorld(test: (w: World) => Promise<void> | void, options: { git?: boolean } = {}): Promise<void> {
  const base = tempDir('debussy-doctor-');
  try {
    const project = path.join(base.dir, 'project');
    const home = path.join(base.dir, 'home');
    mkdirSync(project);
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    if (options.git !== false) initRepo(project);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), GIT_CONFIG_NOSYSTEM: '1', ANTHROPIC_API_KEY: SECRET, IS_SANDBOX: '1' };
    const writeConfig = (config: Record<string, unknown>): void => {
      mkdirSync(path.join(project, '.debussy'), { recursive: true });
      writeFileSync(path.join(project, '.debussy', 'config.yaml'), YAML.stringify(config));
    };
    writeConfig(GOOD_CONFIG);
    await test({ project, home, env, writeConfig, config: () => gatherConfig(project, undefined) });
  } finally {
    base.cleanup();
  }
}

/** No check says a secret, whatever it found. */
function shown(check: DoctorCheck): DoctorCheck {
  expect(JSON.stringify(check)).not.toContain(SECRET);
  return check;
}

describe.concurrent('the doctor\'s checks, each made to fail or warn on its own', () => {
  it('agent codex: the Codex CLI at its tested version, and OPENAI_API_KEY', () => inWorld(async (w) => {
    const env = { ...w.env, OPENAI_API_KEY: 'sk-doctor-openai-secret', ANTHROPIC_API_KEY: undefined };
    const codex = shown(checkCodex(await gatherCodex(CODEX_BIN, env)));
    expect(codex.status).toBe('pass');
    expect(codex.message).toMatch(new RegExp(`^codex ${escaped(CODEX_VERSION)} at .*; debussy is tested with ${escaped(CODEX_VERSION)}$`));
    expect(shown(checkCodexAuth(gatherCodexAuth(env)))).toEqual({ id: 'auth', status: 'pass', message: 'credentials: OPENAI_API_KEY set' });
  }));

  it('agent codex without codex or credentials: a failure for each, with its fix', () => inWorld(async (w) => {
    const env = { ...w.env, ANTHROPIC_API_KEY: undefined, CODEX_HOME: path.join(w.home, 'no-codex-home') };
    const codex = checkCodex(await gatherCodex('/nonexistent/codex', env));
    expect(codex).toMatchObject({ status: 'fail', message: 'codex: "/nonexistent/codex" not found (agent: codex)' });
    expect(codex.fix).toContain('Install the Codex CLI (npm install -g @openai/codex)');
    expect(checkCodexAuth(gatherCodexAuth(env))).toMatchObject({ status: 'fail', message: 'credentials: no OPENAI_API_KEY and no Codex CLI login found' });
  }));

  it('agent gemini: the Gemini CLI at its tested version, and GEMINI_API_KEY', () => inWorld(async (w) => {
    const env = { ...w.env, GEMINI_API_KEY: 'doctor-gemini-secret', ANTHROPIC_API_KEY: undefined };
    const gemini = shown(checkGemini(await gatherGemini(GEMINI_BIN, env)));
    expect(gemini.status).toBe('pass');
    expect(gemini.message).toMatch(new RegExp(`^gemini ${escaped(GEMINI_VERSION)} at .*; debussy is tested with ${escaped(GEMINI_VERSION)}$`));
    const auth = checkGeminiAuth(gatherGeminiAuth(env));
    expect(auth).toEqual({ id: 'auth', status: 'pass', message: 'credentials: GEMINI_API_KEY set' });
    expect(JSON.stringify([gemini, auth])).not.toContain('doctor-gemini-secret');
  }));

  it('agent gemini without gemini or credentials: a failure for each, with its fix', () => inWorld(async (w) => {
    const env = { ...w.env, ANTHROPIC_API_KEY: undefined, GEMINI_CLI_HOME: path.join(w.home, 'no-gemini-home') };
    const gemini = checkGemini(await gatherGemini('/nonexistent/gemini', env));
    expect(gemini).toMatchObject({ status: 'fail', message: 'gemini: "/nonexistent/gemini" not found (agent: gemini)' });
    expect(gemini.fix).toContain('Install the Gemini CLI (npm install -g @google/gemini-cli)');
    expect(checkGeminiAuth(gatherGeminiAuth(env))).toMatchObject({ status: 'fail', message: 'credentials: no GEMINI_API_KEY and no Gemini CLI login found' });
  }));

  it('claude older than the tested version: a warning with the update command', () => inWorld(async (w) => {
    // A claude that only answers --version, as an old release would.
    const old = path.join(w.home, 'old-claude');
    writeFileSync(old, '#!/bin/sh\necho "1.0.3 (Claude Code)"\n', { mode: 0o755 });
    const claude = checkClaude(await gatherClaude(old, w.env));
    expect(claude).toMatchObject({ status: 'warn', message: `claude 1.0.3 at ${old}, older than every version debussy is tested with: ${TESTED_CLAUDE_VERSIONS_TEXT}` });
    expect(claude.fix).toMatch(/^Update it/);
  }));

  it('no API key and no login: a failure; a login in claude\'s config folder passes without showing it', () => inWorld(async (w) => {
    const env = { ...w.env, ANTHROPIC_API_KEY: undefined };
    const missing = checkAuth(await gatherAuth(env));
    expect(missing).toMatchObject({ status: 'fail', message: 'credentials: no ANTHROPIC_API_KEY and no Claude Code login found' });
    expect(missing.fix).toMatch(/^Run `claude` once and log in \(\/login\), or set ANTHROPIC_API_KEY/);

    writeFileSync(path.join(w.home, '.claude', '.credentials.json'), JSON.stringify({ claudeAiOauth: { accessToken: SECRET } }));
    expect(shown(checkAuth(await gatherAuth(env)))).toEqual({ id: 'auth', status: 'pass', message: `credentials: logged in to Claude Code (${path.join(w.home, '.claude', '.credentials.json')})` });
  }));

  it('not a git repository with auto_commit on: a failure', () => inWorld(async (w) => {
    const { config } = await w.config();
    expect(checkGit(await gatherGit(w.project, config, w.env))).toMatchObject({ status: 'fail', message: 'git: not inside a git repository, and auto_commit is on' });
  }, { git: false }));

  it('permissions that refuse file edits: a failure; Claude Code settings that allow them pass', () => inWorld(async (w) => {
    w.writeConfig({ claude_command: CLAUDE_BIN });
    const refused = checkPermissions(gatherPermissions(w.project, (await w.config()).config, w.env));
    expect(refused.status).toBe('fail');
    expect(refused.message).toMatch(/^permissions: claude would refuse the agent's file edits \(permission_mode unset/);
    expect(refused.fix).toMatch(/^Set permission_mode: acceptEdits and allowed_tools/);

    mkdirSync(path.join(w.project, '.claude'));
    writeFileSync(path.join(w.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash(debussy:*)'] } }));
    const allowed = checkPermissions(gatherPermissions(w.project, (await w.config()).config, w.env));
    expect(allowed.status).toBe('pass');
    expect(allowed.message).toMatch(/^permissions: permission_mode acceptEdits/);
  }));

  it('as root, skipping permission checks outside a sandbox: a failure (and inside one, none)', () => inWorld(async (w) => {
    w.writeConfig({ ...GOOD_CONFIG, permission_mode: 'bypassPermissions' });
    const { config } = await w.config();
    const outside = checkPermissions(gatherPermissions(w.project, config, { ...w.env, IS_SANDBOX: undefined }, 0));
    expect(outside.status).toBe('fail');
    expect(outside.message).toMatch(/^permissions: running as root with permission checks skipped/);
    expect(checkPermissions(gatherPermissions(w.project, config, w.env, 0)).message).not.toMatch(/running as root/);
  }));

  it("Claude Code's bare mode (--bare, CLAUDE_CODE_SIMPLE) or disableAllHooks: a warning saying what is lost and the fix", () => inWorld((w) => {
    const bare = checkHooks({ off: hooksOffSources(['--bare'], w.project, { ...w.env, CLAUDE_CODE_SIMPLE: '1' }) });
    expect(bare.status).toBe('warn');
    expect(bare.message).toMatch(/^hooks: --bare in claude_args \(Claude Code's bare mode\); CLAUDE_CODE_SIMPLE=1 in the environment \(Claude Code's bare mode\): debussy's hooks are off in its sessions: no stop guard/);
    expect(bare.fix).toMatch(/^To keep them on, take --bare and --safe-mode out of claude_args, unset CLAUDE_CODE_SIMPLE/);

    writeFileSync(path.join(w.home, '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    const disabled = checkHooks({ off: hooksOffSources([], w.project, w.env) });
    expect(disabled.status).toBe('warn');
    expect(disabled.message).toMatch(/^hooks: \S*settings\.json sets disableAllHooks: debussy's hooks are off/);
  }));

  it('an invalid config: a failure naming the key', () => inWorld(async (w) => {
    w.writeConfig({ ...GOOD_CONFIG, context_threshold: 150 });
    const config = checkConfig((await w.config()).facts);
    expect(config.status).toBe('fail');
    expect(config.message).toMatch(/^config: .*context_threshold/);
  }));

  it('a webhook nobody answers: a failure; one that answers passes (a HEAD, no notification sent, its password not shown)', () => inWorld(async (w) => {
    const methods: string[] = [];
    const server = createServer((req, res) => {
      methods.push(req.method ?? '');
      res.writeHead(405).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      w.writeConfig({ ...GOOD_CONFIG, notify_webhook: `http://user:${SECRET}@127.0.0.1:${port}/topic` });
      const up = shown(checkNotify(await gatherNotify((await w.config()).config)));
      expect(up).toEqual({ id: 'notify', status: 'pass', message: `notifications: the webhook at http://127.0.0.1:${port} answers` });
      expect(methods).toEqual(['HEAD']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    w.writeConfig({ ...GOOD_CONFIG, notify_webhook: `http://127.0.0.1:${closedPort}/topic` });
    const down = checkNotify(await gatherNotify((await w.config()).config));
    expect(down).toMatchObject({ status: 'fail', message: `notifications: the webhook at http://127.0.0.1:${closedPort} is not reachable (ECONNREFUSED)` });
  }));
});
