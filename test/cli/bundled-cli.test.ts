/**
 * bin/debussy.js runs the bundle scripts/bundle.js makes of dist/ (dist/bundle/), and falls back
 * to tsc's modules when there is none or it is stale; the bundle keeps the lazy loading the
 * commands rely on. Which files a command really loads is recorded by a module loader hook in the
 * real node process.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, REPO_ROOT, runCommand, tempDir } from './cli-harness.js';

let work: { dir: string; cleanup(): void };
let hook: string;

beforeAll(() => {
  work = tempDir('debussy-bundle-');
  hook = path.join(work.dir, 'record-loads.mjs');
  writeFileSync(path.join(work.dir, 'record-loads-hooks.mjs'), [
    "import { appendFileSync } from 'node:fs';",
    'export async function load(url, context, next) {',
    "  if (url.startsWith('file:') && process.env.LOADED_LOG) appendFileSync(process.env.LOADED_LOG, url + '\\n');",
    '  return next(url, context);',
    '}',
  ].join('\n'));
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(work.dir, 'record-loads-hooks.mjs')).href)});\n`);
});

afterAll(() => work.cleanup());

/** Copies the package (bin, dist, package.json; node_modules linked) to a folder whose dist/ a test may change. */
function copyPackage(name: string): string {
  const copy = path.join(work.dir, name);
  mkdirSync(copy);
  cpSync(path.join(REPO_ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
  cpSync(path.join(REPO_ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true, preserveTimestamps: true });
  cpSync(path.join(REPO_ROOT, 'package.json'), path.join(copy, 'package.json'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  return copy;
}

/** Runs `node <bin> ...args` in `cwd` and returns the files it loaded, relative to `packageRoot`. */
async function loadedFiles(packageRoot: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; files: string[]; output: string }> {
  const log = path.join(work.dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const result = await runCommand(process.execPath, ['--import', hook, path.join(packageRoot, 'bin/debussy.js'), ...args], {
    cwd, env: { ...process.env, DEBUSSY_RUN_ID: undefined, NO_COLOR: '1', LOADED_LOG: log, ...env },
  });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((url) => path.relative(packageRoot, new URL(url).pathname));
  return { code: result.code, files, output: result.stdout + result.stderr };
}

/** The bundle's files that hold a dependency's code: esbuild heads each bundled module with a `// node_modules/<path>` comment. */
function bundleFilesHolding(marker: string): string[] {
  const dir = path.join(REPO_ROOT, 'dist/bundle');
  return readdirSync(dir).filter((file) => readFileSync(path.join(dir, file), 'utf8').includes(marker)).map((file) => `dist/bundle/${file}`);
}

describe('the bundled CLI', () => {
  it('is what the binary runs: no module of dist/cli is loaded', async () => {
    const project = path.join(work.dir, 'project');
    mkdirSync(project);
    initRepo(project);
    const { code, files, output } = await loadedFiles(REPO_ROOT, ['status'], project);
    expect(code, output).not.toBeNull();
    expect(files).toContain('dist/bundle/main.js');
    expect(files.filter((file) => file.startsWith('dist/') && !file.startsWith('dist/bundle/'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('node_modules/'))).toEqual([]);
  });

  it('keeps status, done and a plain run free of execa, simple-git and string-width', async () => {
    // The texts exist in the bundle (else this test could not fail)...
    const execa = bundleFilesHolding('// node_modules/execa/');
    const simpleGit = bundleFilesHolding('// node_modules/simple-git/');
    const stringWidth = bundleFilesHolding('// node_modules/string-width/');
    for (const holders of [execa, simpleGit, stringWidth]) expect(holders.length).toBeGreaterThan(0);
    const lazy = new Set([...execa, ...simpleGit, ...stringWidth]);
    const project = path.join(work.dir, 'lazy');
    mkdirSync(project);
    initRepo(project);
    for (const args of [['status'], ['done', '--phase', '1'], ['progress', '--phase', '1', '--message', 'x']]) {
      const { files } = await loadedFiles(REPO_ROOT, args, project);
      expect(files.filter((file) => lazy.has(file)), args.join(' ')).toEqual([]);
    }
    // ...and a plain run loads no string-width: here one whose claude is missing, which the run
    // finds out after its output is set up (the plan and config of `init` and `plan new`).
    expect((await loadedFiles(REPO_ROOT, ['init'], project)).code).toBe(0);
    expect((await loadedFiles(REPO_ROOT, ['plan', 'new', 'demo'], project)).code).toBe(0);
    writeFileSync(path.join(project, '.debussy/config.yaml'), `${readFileSync(path.join(project, '.debussy/config.yaml'), 'utf8')}\nclaude_command: /nonexistent/claude\n`);
    const run = await loadedFiles(REPO_ROOT, ['run', 'plans/demo/MASTER_PLAN.md', '--plain', '--allow-dirty'], project);
    expect(run.output).toContain('"/nonexistent/claude" was not found');
    expect(run.files.filter((file) => stringWidth.includes(file))).toEqual([]);
  });

  it('falls back to the modules when the bundle is missing or older than them', async () => {
    const copy = copyPackage('package');
    const version = async () => loadedFiles(copy, ['--version'], work.dir);

    const fresh = await version();
    expect(fresh.files).toContain('dist/bundle/main.js');
    expect(fresh.files).not.toContain('dist/cli/main.js');

    // tsc ran again after the bundle was made: the bundle is stale, the modules run.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(copy, 'dist/cli/main.js'), later, later);
    const stale = await version();
    expect(stale.code).toBe(0);
    expect(stale.files).toContain('dist/cli/main.js');
    expect(stale.files).not.toContain('dist/bundle/main.js');

    rmSync(path.join(copy, 'dist/bundle'), { recursive: true });
    const none = await version();
    expect(none.code).toBe(0);
    expect(none.files).toContain('dist/cli/main.js');
    expect(existsSync(path.join(copy, 'dist/bundle'))).toBe(false);
  });

  it("counts tokens from the vocabulary file the build wrote, as it counts from js-tiktoken's ranks without it", async () => {
    // `replay` counts what entered the context between two usage reports; the files it reads are logged.
    const transcript = path.join(work.dir, 'session.jsonl');
    const usage = (input: number) => ({ input_tokens: input, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 30 });
    writeFileSync(transcript, [
      { type: 'user', message: { role: 'user', content: 'Write a function that adds two numbers, in TypeScript, with its tests.' } },
      { type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'function add(a: number, b: number) { return a + b; }' }], usage: usage(20) } },
      { type: 'user', message: { role: 'user', content: 'Now one that multiplies them; explain the types you chose in a paragraph of prose.' } },
      { type: 'assistant', message: { id: 'msg_2', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: 'function mul(a: number, b: number) { return a * b; }' }], usage: usage(75) } },
    ].map((line) => JSON.stringify(line)).join('\n') + '\n');
    const reads = path.join(work.dir, 'record-reads.mjs');
    writeFileSync(reads, [
      "import fs from 'node:fs';",
      "import { syncBuiltinESMExports } from 'node:module';",
      'const original = fs.readFileSync;',
      "fs.readFileSync = function (file, ...rest) { const data = original.call(this, file, ...rest); if (String(file).endsWith('.vocab')) process.stderr.write('READ ' + String(file) + '\\n'); return data; };",
      'syncBuiltinESMExports();',
    ].join('\n'));
    const replay = async (packageRoot: string) => {
      const result = await runCommand(process.execPath, ['--import', reads, path.join(packageRoot, 'bin/debussy.js'), 'replay', transcript, '--json'], { cwd: work.dir, env: { ...process.env, DEBUSSY_RUN_ID: undefined } });
      expect(result.code, result.stderr).toBe(0);
      return result;
    };
    const withFile = await replay(REPO_ROOT);
    expect(withFile.stderr).toContain(`READ ${pathToFileURL(path.join(REPO_ROOT, 'dist/tokenizer/cl100k_base.vocab')).href}`);
    const copy = copyPackage('no-vocabulary');
    rmSync(path.join(copy, 'dist/tokenizer/cl100k_base.vocab'));
    const without = await replay(copy);
    expect(without.stderr).not.toContain('READ');
    expect(without.stdout).toBe(withFile.stdout);
    expect(withFile.stdout).toMatch(/"projected":\d+/);
  });
});
