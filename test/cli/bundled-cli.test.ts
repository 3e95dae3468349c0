/**
 * bin/debussy.js runs the script scripts/bundle.js makes of dist/ (dist/bundle/cli-script.js) with
 * V8's code cache for it, and falls back to tsc's modules when there is no script or it is stale;
 * the modules keep the lazy loading the commands rely on. What a command really loads is recorded
 * in the real node process: ES modules by a loader hook, the script by a spy on node:vm.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, REPO_ROOT, runCommand, tempDir } from './cli-harness.js';

let work: { dir: string; cleanup(): void };
let hook: string;
let vmSpy: string;

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
  // Says which script node:vm compiled (relative to the package), and whether V8 took its cache.
  vmSpy = path.join(work.dir, 'spy-vm.mjs');
  writeFileSync(vmSpy, [
    "import vm from 'node:vm';",
    "import path from 'node:path';",
    "import { syncBuiltinESMExports } from 'node:module';",
    'const Original = vm.Script;',
    'vm.Script = class extends Original {',
    '  constructor(code, options) {',
    '    super(code, options);',
    "    const file = options && options.filename ? path.relative(process.env.PACKAGE_ROOT, options.filename) : '?';",
    "    process.stderr.write(`SCRIPT ${file} cache=${options && options.cachedData ? (this.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}\\n`);",
    '  }',
    '};',
    'syncBuiltinESMExports();',
  ].join('\n'));
});

afterAll(() => work.cleanup());

/** Copies the package (bin, dist, package.json; node_modules, templates, docs and schema linked) to a folder whose dist/ a test may change. */
function copyPackage(name: string): string {
  const copy = path.join(work.dir, name);
  mkdirSync(copy);
  cpSync(path.join(REPO_ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
  cpSync(path.join(REPO_ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true, preserveTimestamps: true });
  cpSync(path.join(REPO_ROOT, 'package.json'), path.join(copy, 'package.json'));
  for (const shared of ['node_modules', 'templates', 'docs', 'schema']) symlinkSync(path.join(REPO_ROOT, shared), path.join(copy, shared));
  return copy;
}

/** Runs `node <bin> ...args` in `cwd` and returns the modules it loaded, relative to `packageRoot`, and its output (with the vm spy's lines). */
async function loadedFiles(packageRoot: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; files: string[]; output: string }> {
  const log = path.join(work.dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const result = await runCommand(process.execPath, ['--import', hook, '--import', vmSpy, path.join(packageRoot, 'bin/debussy.js'), ...args], {
    cwd, env: { ...process.env, DEBUSSY_RUN_ID: undefined, NO_COLOR: '1', LOADED_LOG: log, PACKAGE_ROOT: packageRoot, ...env },
  });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((url) => path.relative(packageRoot, new URL(url).pathname));
  return { code: result.code, files, output: result.stdout + result.stderr };
}

describe('the bundled CLI', () => {
  it('is what the binary runs, from its code cache: no module of dist/ is loaded', async () => {
    const project = path.join(work.dir, 'project');
    mkdirSync(project);
    initRepo(project);
    const { code, files, output } = await loadedFiles(REPO_ROOT, ['status'], project);
    expect(code, output).toBe(0);
    expect(files.filter((file) => !file.startsWith('..'))).toEqual(['bin/debussy.js']);
    expect(output).toContain('SCRIPT dist/bundle/cli-script.js cache=accepted');
  });

  it('still runs where V8 rejects the cache (other V8 flags): the script compiles as it goes', async () => {
    const { code, output } = await loadedFiles(REPO_ROOT, ['--version'], work.dir, { NODE_OPTIONS: '--max-old-space-size=3000' });
    expect(code, output).toBe(0);
    expect(output).toContain('SCRIPT dist/bundle/cli-script.js cache=rejected');
    expect(output).toMatch(/^\d+\.\d+\.\d+/m);
  });

  it('from its modules, keeps status, done and a plain run free of execa, simple-git and string-width', async () => {
    const copy = copyPackage('modules');
    rmSync(path.join(copy, 'dist/bundle'), { recursive: true });
    const lazy = /^node_modules\/(execa|simple-git|string-width)\//;
    const project = path.join(work.dir, 'lazy');
    mkdirSync(project);
    initRepo(project);
    for (const args of [['status'], ['done', '--phase', '1'], ['progress', '--phase', '1', '--message', 'x']]) {
      const { files } = await loadedFiles(copy, args, project);
      expect(files, args.join(' ')).toContain('dist/cli/main.js');
      expect(files.filter((file) => lazy.test(file)), args.join(' ')).toEqual([]);
    }
    // A plain run loads no string-width: here one whose claude is missing, which the run finds
    // out after its output is set up (the plan and config of `init` and `plan new`).
    const init = await loadedFiles(copy, ['init'], project);
    expect(init.code, init.output).toBe(0);
    expect((await loadedFiles(copy, ['plan', 'new', 'demo'], project)).code).toBe(0);
    writeFileSync(path.join(project, '.debussy/config.yaml'), `${readFileSync(path.join(project, '.debussy/config.yaml'), 'utf8')}\nclaude_command: /nonexistent/claude\n`);
    const run = await loadedFiles(copy, ['run', 'plans/demo/MASTER_PLAN.md', '--plain', '--allow-dirty'], project);
    expect(run.output).toContain('"/nonexistent/claude" was not found');
    expect(run.files).toContain('dist/report/plain-reporter.js');
    expect(run.files.filter((file) => file.startsWith('node_modules/string-width/'))).toEqual([]);
  });

  it('falls back to the modules when the script is missing or older than them', async () => {
    const copy = copyPackage('package');
    const version = async () => loadedFiles(copy, ['--version'], work.dir);

    const fresh = await version();
    expect(fresh.output).toContain('SCRIPT dist/bundle/cli-script.js cache=accepted');
    expect(fresh.files).not.toContain('dist/cli/start.js');

    // tsc ran again after the bundle was made: the script is stale, the modules run.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(copy, 'dist/cli/main.js'), later, later);
    const stale = await version();
    expect(stale.code).toBe(0);
    expect(stale.files).toContain('dist/cli/start.js');
    expect(stale.output).not.toContain('SCRIPT');

    rmSync(path.join(copy, 'dist/bundle'), { recursive: true });
    const none = await version();
    expect(none.code).toBe(0);
    expect(none.files).toContain('dist/cli/start.js');
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

  it('reads a JavaScript config file (imported at run time) from its code cache as the modules do', async () => {
    const project = path.join(work.dir, 'js-config');
    mkdirSync(project);
    initRepo(project);
    writeFileSync(path.join(project, 'debussy.config.mjs'), 'export default { max_restarts: 2, context_threshold: 70 };\n');
    writeFileSync(path.join(project, 'debussy.config.cjs'), 'module.exports = { max_restarts: 4 };\n');
    const modules = copyPackage('js-config-modules');
    rmSync(path.join(modules, 'dist/bundle'), { recursive: true });
    for (const file of ['debussy.config.mjs', 'debussy.config.cjs']) {
      const bundled = await loadedFiles(REPO_ROOT, ['config', '--config', file, '--json'], project);
      expect(bundled.output).toContain('SCRIPT dist/bundle/cli-script.js cache=accepted');
      const fromModules = await loadedFiles(modules, ['config', '--config', file, '--json'], project);
      expect(bundled.code, bundled.output).toBe(0);
      expect(bundled.output.replace(/^SCRIPT .*\n/m, '')).toBe(fromModules.output);
    }
    const mjs = await loadedFiles(REPO_ROOT, ['config', '--config', 'debussy.config.mjs'], project);
    expect(mjs.output).toMatch(/max_restarts\s+2\s+\(file\)/);
    expect(mjs.output).not.toMatch(/warning|ExperimentalWarning/i);
  });
});
