/**
 * bin/debussy.js runs tsc's modules (dist/), with node's own compile cache where node has one
 * (`module.enableCompileCache`, Node >= 22.8), and the commands keep the lazy loading they rely on. What a command really loads
 * is recorded in the real node process by a module loader hook.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, REPO_ROOT, runCommand, tempDir } from './cli-harness.js';

let work: { dir: string; cleanup(): void };
let hook: string;

beforeAll(() => {
  work = tempDir('debussy-bin-');
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

/** Runs `node <bin> ...args` in `cwd` and returns its output. */
async function runBin(args: string[], cwd: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<{ code: number | null; output: string }> {
  const result = await runCommand(process.execPath, [...nodeArgs, path.join(REPO_ROOT, 'bin/debussy.js'), ...args], {
    cwd, env: { ...process.env, DEBUSSY_RUN_ID: undefined, NO_COLOR: '1', ...env },
  });
  return { code: result.code, output: result.stdout + result.stderr };
}

/** Like runBin, and the modules it loaded, relative to the package (a loader hook: Node >= 20.6). */
async function loadedFiles(args: string[], cwd: string): Promise<{ code: number | null; files: string[]; output: string }> {
  const log = path.join(work.dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const result = await runBin(args, cwd, { LOADED_LOG: log }, ['--import', hook]);
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((url) => path.relative(REPO_ROOT, new URL(url).pathname));
  return { ...result, files };
}

/** Node >= 22.8 has `module.enableCompileCache`; Node 20 does not (bin/debussy.js then does without). */
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
/** Loader hooks (`module.register`) came in Node 20.6; debussy itself runs from 20.5. */
const hasLoaderHooks = typeof (module as { register?: unknown }).register === 'function';

describe('bin/debussy.js', () => {
  it.runIf(hasLoaderHooks)('runs the modules of dist/, and keeps status, done, progress and a plain run free of execa, simple-git and string-width (and of the queue\'s bullmq)', async () => {
    const lazy = /^node_modules\/(execa|simple-git|string-width|bullmq|ioredis)\//;
    const project = path.join(work.dir, 'lazy');
    mkdirSync(project);
    initRepo(project);
    for (const args of [['status'], ['done', '--phase', '1'], ['progress', '--phase', '1', '--message', 'x']]) {
      const { files } = await loadedFiles(args, project);
      expect(files, args.join(' ')).toContain('dist/cli/main.js');
      expect(files.filter((file) => lazy.test(file)), args.join(' ')).toEqual([]);
    }
    // A plain run loads no string-width: here one whose claude is missing, which the run finds
    // out after its output is set up (the plan and config of `init` and `plan new`).
    const init = await loadedFiles(['init'], project);
    expect(init.code, init.output).toBe(0);
    expect((await loadedFiles(['plan', 'new', 'demo'], project)).code).toBe(0);
    writeFileSync(path.join(project, '.debussy/config.yaml'), `${readFileSync(path.join(project, '.debussy/config.yaml'), 'utf8')}\nclaude_command: /nonexistent/claude\n`);
    const run = await loadedFiles(['run', 'plans/demo/MASTER_PLAN.md', '--plain', '--allow-dirty'], project);
    expect(run.output).toContain('"/nonexistent/claude" was not found');
    expect(run.files).toContain('dist/report/plain-reporter.js');
    expect(run.files.filter((file) => /^node_modules\/(string-width|bullmq|ioredis)\//.test(file))).toEqual([]);
  });

  it('reads a JavaScript config file, ES module or CommonJS (imported at run time)', async () => {
    const project = path.join(work.dir, 'js-config');
    mkdirSync(project);
    initRepo(project);
    writeFileSync(path.join(project, 'debussy.config.mjs'), 'export default { max_restarts: 2, context_threshold: 70 };\n');
    writeFileSync(path.join(project, 'debussy.config.cjs'), 'module.exports = { max_restarts: 4 };\n');
    const mjs = await runBin(['config', '--config', 'debussy.config.mjs'], project);
    expect(mjs.code, mjs.output).toBe(0);
    expect(mjs.output).toMatch(/max_restarts\s+2\s+\(file\)/);
    expect(mjs.output).toMatch(/context_threshold\s+70\s+\(file\)/);
    expect(mjs.output).not.toMatch(/warning|ExperimentalWarning/i);
    const cjs = await runBin(['config', '--config', 'debussy.config.cjs'], project);
    expect(cjs.code, cjs.output).toBe(0);
    expect(cjs.output).toMatch(/max_restarts\s+4\s+\(file\)/);
  });

  it.runIf(hasCompileCache)("fills node's compile cache with the modules a command loads (Node >= 22.8)", async () => {
    const cache = path.join(work.dir, 'compile-cache');
    const first = await runBin(['--version'], work.dir, { NODE_COMPILE_CACHE: cache });
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/^\d+\.\d+\.\d+/m);
    const cached = readdirSync(cache, { recursive: true }).length;
    expect(cached).toBeGreaterThan(0);
    // The next start reads them back; its output is the same.
    const second = await runBin(['--version'], work.dir, { NODE_COMPILE_CACHE: cache });
    expect(second.output).toBe(first.output);
  });

  it.skipIf(hasCompileCache)('runs where node has no compile cache (Node 20), and makes none', async () => {
    const cache = path.join(work.dir, 'no-compile-cache');
    const result = await runBin(['--version'], work.dir, { NODE_COMPILE_CACHE: cache });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/^\d+\.\d+\.\d+/m);
    expect(existsSync(cache)).toBe(false);
  });
});
