/**
 * Issue 12: secrets in the configuration never reach the terminal. `debussy config`, `config
 * --json`, config errors and flag errors print through the built binary, as a user sees them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_FORMS } from '../fixtures/secrets/corpus.js';
import { piecesFound, secretPieces } from '../support/secret-pieces.js';
import { debussy, expectNoStack, initRepo, tempDir, type CliResult } from './cli-harness.js';

// Fixtures of our own, shaped like the real formats (none of them is a live credential).
const WEBHOOK_PASSWORD = 'hunter2-webhook-pass';
const WEBHOOK_QUERY_TOKEN = 'qs0token0value0123';
const WEBHOOK_AUTH = 'QWxhZGRpbjpvcGVuc2VzYW1l';
const ANTHROPIC_KEY = 'sk-ant-api03-R4nd0mF1xtur3K3yV4lu3-0123456789abcdef';
const GITHUB_TOKEN = 'ghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u';
const BEARER_TOKEN = 'b3arer0t0ken0value0abcdef0123456789';
const NPM_TOKEN = 'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const AWS_KEY = 'AKIAIOSFODNN7FIXTURE';
const ENV_SECRET = 'env-secret-value-0123456789';

const SECRETS = [WEBHOOK_PASSWORD, WEBHOOK_QUERY_TOKEN, WEBHOOK_AUTH, ANTHROPIC_KEY, GITHUB_TOKEN, BEARER_TOKEN, NPM_TOKEN, AWS_KEY, ENV_SECRET];

/** Each secret, and its first 12 characters: a cut token must not leave its start behind either. */
function expectNoSecret(result: CliResult): void {
  const printed = result.stdout + result.stderr;
  for (const secret of SECRETS) {
    expect(printed, `printed ${secret}`).not.toContain(secret.slice(0, 12));
  }
}

let work: { dir: string; cleanup(): void };

beforeEach(() => {
  work = tempDir();
  initRepo(work.dir);
});
afterEach(() => work.cleanup());

function writeConfig(config: Record<string, unknown>): void {
  mkdirSync(path.join(work.dir, '.debussy'), { recursive: true });
  writeFileSync(path.join(work.dir, '.debussy/config.yaml'), YAML.stringify(config));
}

const SECRET_CONFIG = {
  notify_webhook: `https://alerts:${WEBHOOK_PASSWORD}@ntfy.example.com/deploys?token=${WEBHOOK_QUERY_TOKEN}&auth=${WEBHOOK_AUTH}`,
  claude_args: ['--api-key', ANTHROPIC_KEY, '--header', `Authorization: Bearer ${BEARER_TOKEN}`, `--github=${GITHUB_TOKEN}`, NPM_TOKEN],
  gates: { deploy: `AWS_ACCESS_KEY_ID=${AWS_KEY} ./deploy --check`, publish: `echo ${ENV_SECRET}` },
};

describe('debussy config hides secrets', () => {
  it('the plain listing shows every key but no secret value', async () => {
    writeConfig(SECRET_CONFIG);
    const result = await debussy(['config'], { cwd: work.dir, env: { DEPLOY_TOKEN: ENV_SECRET } });
    expect(result.code, result.stderr).toBe(0);
    expectNoSecret(result);
    expect(result.stdout).toContain('notify_webhook');
    expect(result.stdout).toContain('ntfy.example.com');
    expect(result.stdout).toContain('[REDACTED');
    expect(result.stdout).toContain('--api-key');
  });

  it('--json keeps its shape, with the secret values redacted', async () => {
    writeConfig(SECRET_CONFIG);
    const result = await debussy(['config', '--json'], { cwd: work.dir, env: { DEPLOY_TOKEN: ENV_SECRET } });
    expect(result.code, result.stderr).toBe(0);
    expectNoSecret(result);
    const parsed = JSON.parse(result.stdout) as { values: Record<string, { value: unknown; source: string }> };
    expect(parsed.values.claude_args?.source).toBe('file');
    const args = parsed.values.claude_args?.value as string[];
    expect(args).toHaveLength(6);
    expect(args[0]).toBe('--api-key');
    expect(args[3]).toBe('Authorization: Bearer [REDACTED]');
    expect(parsed.values.notify_webhook?.value).toMatch(/^https:\/\/alerts:\[REDACTED\]@ntfy\.example\.com\//);
    expect(parsed.values.max_restarts).toEqual({ value: 3, source: 'default' });
  });
});

/** The `.env` lines of the corpus as an environment: what an inline `--settings '{"env": {...}}'` carries. */
function corpusEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const form of SECRET_FORMS.filter((f) => f.family === 'env-file')) {
    for (const line of form.text.split('\n')) {
      const match = /^(?:export )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) env[match[1]] = match[2].replace(/^(["'])(.*)\1$/, '$2');
    }
  }
  return env;
}

describe('debussy config hides every form of the secret corpus (issue 22)', () => {
  // Each form as a gate command (`PGPASSWORD=... psql`, `curl -u user:pw`, a .env line...), and the
  // .env forms as the env of an inline --settings JSON in claude_args, in both of its spellings.
  const settings = JSON.stringify({ env: { OPENAI_KEY: 'sHPyy2tUPlkUrf7uXq9', ...corpusEnv() }, model: 'sonnet' });
  const config = {
    claude_args: ['--settings', settings, `--settings=${settings}`],
    gates: Object.fromEntries(SECRET_FORMS.map((form, index) => [`g${index}`, form.text])),
  };
  const forms = [...SECRET_FORMS, { name: 'OPENAI_KEY in --settings', family: 'json' as const, text: '', secrets: ['sHPyy2tUPlkUrf7uXq9'], keeps: [] }];

  it.each([['config'], ['config', '--json']])('debussy %s %s: no piece of any secret; the commands still read', async (...args) => {
    writeConfig(config);
    const result = await debussy(args, { cwd: work.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(corpusEnv().PGPASSWORD, 'the corpus has a PGPASSWORD line').toBeDefined();
    expect(piecesFound(result.stdout + result.stderr, secretPieces(forms))).toEqual([]);
    for (const kept of ['psql -h db.internal', 'PGPASSWORD=', 'OPENAI_KEY', 'db.internal:5432/app', 'AWS_REGION', 'eu-west-1']) expect(result.stdout).toContain(kept);
  });
});

describe('errors never print a secret', () => {
  it('a config value that is not allowed is named without its secret value', async () => {
    writeConfig({ context_threshold: ANTHROPIC_KEY, max_restarts: `token=${WEBHOOK_QUERY_TOKEN}`, model: 'sonnet' });
    const result = await debussy(['config'], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('context_threshold');
    expect(result.stderr).toContain('is not allowed: expected a number from 1 to 100');
    expect(result.stderr).toContain('max_restarts');
    expectNoSecret(result);
    expectNoStack(result);
  });

  it('a flag value that is not allowed is named without its secret value', async () => {
    writeFileSync(path.join(work.dir, 'MASTER_PLAN.md'), '# P\n');
    const result = await debussy(['run', 'MASTER_PLAN.md', '--dry-run', '--max-restarts', GITHUB_TOKEN], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-restarts');
    expectNoSecret(result);
    expectNoStack(result);
  });

  it("commander's own errors (an unknown option with a key in it) are redacted", async () => {
    const result = await debussy(['run', 'MASTER_PLAN.md', `--anthropic-key=${ANTHROPIC_KEY}`], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown option');
    expectNoSecret(result);
  });

  it('a notify_webhook that is not a URL is refused in one line, without its value', async () => {
    for (const value of [`alerts:${WEBHOOK_PASSWORD}@ntfy.example.com/deploys`, `ftp://ntfy.example.com/${WEBHOOK_QUERY_TOKEN}`]) {
      writeConfig({ notify_webhook: value });
      const result = await debussy(['config'], { cwd: work.dir });
      expect(result.code, value).toBe(2);
      expect(result.stderr).toContain('notify_webhook');
      expect(result.stderr).toContain('expected an http:// or https:// URL');
      expectNoSecret(result);
      expectNoStack(result);
    }
  });

  it('an unknown config key that is a secret itself is not echoed', async () => {
    writeConfig({ [GITHUB_TOKEN]: true });
    const result = await debussy(['config'], { cwd: work.dir });
    expect(result.stderr).toContain('unknown key');
    expectNoSecret(result);
  });
});

describe('debussy done --verify', () => {
  it("prints a failing gate's output redacted (in a session, the model reads it)", async () => {
    mkdirSync(path.join(work.dir, 'plans'), { recursive: true });
    writeFileSync(path.join(work.dir, 'plans/MASTER_PLAN.md'), '# P - Master Plan\n\n| Phase | Title | Status | Depends On |\n|---|---|---|---|\n| 1 | [One](phase-1.md) | Pending | - |\n');
    const gate = `printf 'push failed for ghp_%s\\n' ${GITHUB_TOKEN.slice(4)}; echo "token in env: $DEPLOY_TOKEN"; exit 1`;
    writeFileSync(path.join(work.dir, 'plans/phase-1.md'), `# Phase 1: One\n\n**Status:** Pending\n\n## Tasks\n- [ ] 1.1: work\n\n## Gates\n- push: passes (command: \`${gate}\`)\n`);
    const result = await debussy(['done', '--phase', '1', '--plan', 'plans/MASTER_PLAN.md', '--verify'], { cwd: work.dir, env: { DEPLOY_TOKEN: ENV_SECRET } });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('gate push: FAILED');
    expect(result.stdout).toContain('push failed for [REDACTED]');
    expect(result.stdout).toContain('token in env: [REDACTED:DEPLOY_TOKEN]');
    expectNoSecret(result);
  });
});

describe('debussy run --dry-run', () => {
  it('shows a gate command mapped in the config redacted', async () => {
    mkdirSync(path.join(work.dir, 'plans'), { recursive: true });
    writeFileSync(path.join(work.dir, 'plans/MASTER_PLAN.md'), '# P - Master Plan\n\n| Phase | Title | Status | Depends On |\n|---|---|---|---|\n| 1 | [One](phase-1.md) | Pending | - |\n');
    writeFileSync(path.join(work.dir, 'plans/phase-1.md'), '# Phase 1: One\n\n**Status:** Pending\n\n## Tasks\n- [ ] 1.1: work\n\n## Gates\n- deploy: the deploy check passes\n');
    writeConfig({ gates: { deploy: `AWS_ACCESS_KEY_ID=${AWS_KEY} DEPLOY_PASSWORD=${WEBHOOK_PASSWORD} ./deploy --check` } });
    for (const args of [[], ['--json']]) {
      const result = await debussy(['run', 'plans/MASTER_PLAN.md', '--dry-run', ...args], { cwd: work.dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('./deploy --check');
      expectNoSecret(result);
    }
  });
});
