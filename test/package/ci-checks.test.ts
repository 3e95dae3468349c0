/**
 * CI's script (.ci/run, which runs the README's `npm test`) fails on a type error and on a lint
 * error, bin/ and scripts/ included, before the tests run. It runs on a small copy of the project: this project's
 * package.json, tsconfig, ESLint and vitest configs, bin/, scripts/build.js, the test setup and
 * .ci/run, with one source file and one unit test of its own, and node_modules linked (so no
 * `npm ci`: CI_SKIP_INSTALL=1), so each check takes seconds instead of the whole project's minutes.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/cli-harness.js';

const COPIED = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'eslint.config.js', 'vitest.config.ts', '.ci/run', 'bin/debussy.js', 'scripts/build.js', 'test/global-setup.ts'];
const SOURCE = "export function greeting(name: string): string {\n  return `hello, ${name}`;\n}\n";
const TEST = "import { expect, it } from 'vitest';\nimport { greeting } from '../src/greeting.js';\n\nit('greets', () => {\n  expect(greeting('ci')).toBe('hello, ci');\n});\n";
const CHECK_TIMEOUT_MS = 240_000;

let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'debussy-ci-checks-'));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh small copy of the project, named `name`, with `edits` (path -> text) written over it. */
function project(name: string, edits: Record<string, string> = {}): string {
  const dir = path.join(work, name);
  for (const file of COPIED) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  for (const [file, text] of Object.entries({ 'src/greeting.ts': SOURCE, 'test/greeting.test.ts': TEST, ...edits })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** Runs .ci/run in `dir` without its install steps and without the other node versions. */
function runCi(dir: string): Promise<{ code: number | null; output: string }> {
  // The test may run inside `npm test`: its npm_* variables would steer the inner npm.
  const env: Record<string, string> = { CI_SKIP_INSTALL: '1', CI_OTHER_NODES: '', NO_COLOR: '1' };
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('npm_') && !(key in env)) env[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['.ci/run'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('.ci/run', () => {
  it('fails on a type error, naming it, before the tests run', async () => {
    const { code, output } = await runCi(project('type-error', { 'src/greeting.ts': `${SOURCE}export const count: number = greeting('x');\n` }));
    expect(code).not.toBe(0);
    expect(output).toMatch(/src\/greeting\.ts\(\d+,\d+\): error TS2322/);
    expect(output).not.toContain('eslint .');
    expect(output).not.toMatch(/Tests\s+\d+ passed/);
  }, CHECK_TIMEOUT_MS);

  it('fails on a lint error in bin/ or scripts/, naming the file and the rule', async () => {
    const bin = readFileSync(path.join(REPO_ROOT, 'bin/debussy.js'), 'utf8');
    const script = readFileSync(path.join(REPO_ROOT, 'scripts/build.js'), 'utf8');
    const dir = project('lint-error', { 'bin/debussy.js': `${bin}const leftOver = 1;\n`, 'scripts/build.js': `${script}undefinedHelper();\n` });
    const { code, output } = await runCi(dir);
    expect(code).not.toBe(0);
    // The type check passed (the copy is otherwise clean), then the linter failed.
    expect(output).toContain('tsc -p tsconfig.json --noEmit');
    expect(output).not.toMatch(/error TS\d+/);
    expect(output).toContain('eslint .');
    expect(output).toContain(path.join(dir, 'bin/debussy.js'));
    expect(output).toMatch(/'leftOver' is assigned a value but never used.*no-unused-vars/);
    expect(output).toContain(path.join(dir, 'scripts/build.js'));
    expect(output).toMatch(/'undefinedHelper' is not defined.*no-undef/);
    expect(output).not.toMatch(/Tests\s+\d+ passed/);
  }, CHECK_TIMEOUT_MS);
});
