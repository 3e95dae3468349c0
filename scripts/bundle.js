// `node scripts/bundle.js`: packs the built CLI (dist/cli/main.js, everything it imports, and the
// dependencies it uses) into one script, dist/bundle/cli-script.js, with V8's compiled code for it
// in dist/bundle/cli-script.cache; bin/debussy.js runs the script when it is there and as new as
// the modules. Plain Node, run after tsc by `npm run build`, `prepare` and the test suite's setup.
//
// Why: Node 20 has no compile cache for ES modules (module.enableCompileCache came in 22), and
// `debussy run` loaded ~470 files (execa alone ~110, yaml ~70), resolving, reading and compiling
// each; compiling was still ~130 ms of a 3-phase run's CPU once they were bundled (perf, bench
// figure 7). A script compiled through node:vm can use a code cache: with it the run spends ~100 ms
// less (docs/decisions.md). Nothing else changes:
// - The bundle is made from tsc's output, so it runs exactly the JavaScript the tests check.
// - A lazy `import()` stays lazy in what it evaluates: esbuild wraps such a module in an init
//   function that runs at the import (`done`, `progress` and `status` evaluate neither execa nor
//   simple-git; their compiled code comes from the cache).
// - dist/bundle/ sits two levels below the package root like every dist/<folder>/<module>.js, so
//   the paths modules compute from import.meta.url (templates, docs, package.json, bin, the
//   vocabulary file) hold: import.meta.url is the script's own file URL.
// - The cache is made in a process of its own with node's default V8 flags: a process whose flags
//   differ (NODE_OPTIONS=--max-old-space-size=...), or another node version, has V8 reject it and
//   compiles the script as it goes, only slower. Without esbuild or the dependencies (a global
//   install from git builds before they are installed) there is no bundle, and bin/debussy.js runs
//   dist/cli/start.js.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import v8 from 'node:v8';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = path.join(root, 'dist', 'bundle');
const entry = path.join(root, 'dist', 'cli', 'main.js');
const script = path.join(outdir, 'cli-script.js');
const cache = path.join(outdir, 'cli-script.cache');

/**
 * The script's text is one function expression, compiled by node:vm and called by bin/debussy.js
 * with what a CommonJS module gets, and its own import(): an import() inside a vm script needs a
 * hook that is experimental in Node 20 (it warns on first use) and is lost when the script comes
 * from a code cache, so the one dependency that imports at run time (cosmiconfig: a JavaScript
 * config file, or TypeScript) calls `__debussyImport` instead (`importThroughCaller`), and the
 * bundle must hold no other import(). Written here only: the code cache belongs to this exact text.
 */
const SCRIPT_HEAD = '(function (exports, require, module, __filename, __dirname, __debussyImport) {\n';
const SCRIPT_TAIL = '\n})';

/**
 * Bundles dist/cli/main.js into dist/bundle/cli-script.js with the package's esbuild, then makes
 * its code cache.
 * Says what happened: 'bundled', 'no-esbuild' or 'failed'; any old bundle is removed first, so a
 * stale one never runs.
 */
export async function bundle({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  if (!existsSync(entry)) {
    log('debussy bundle: dist/cli/main.js is missing (run tsc first); no bundle written.');
    return 'failed';
  }
  let esbuild;
  try {
    const resolved = createRequire(path.join(root, 'package.json')).resolve('esbuild');
    esbuild = await import(pathToFileURL(resolved).href);
  } catch {
    log('debussy bundle: esbuild is not installed; debussy runs unbundled (dist/cli/start.js).');
    return 'no-esbuild';
  }
  const options = {
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // cosmiconfig requires TypeScript only to read a config file written in TypeScript, from
    // wherever the user has it: never part of the bundle.
    external: ['typescript'],
    // The modules find their package's files from import.meta.url: the script's own URL.
    define: { 'import.meta.url': '__debussyScriptUrl' },
    banner: { js: "var __debussyScriptUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'error',
    plugins: [importThroughCaller, builtinImportsAsRequire],
  };
  let built;
  try {
    built = await esbuild.build(options);
  } catch (error) {
    return failed(error, log);
  }
  const [output] = built.outputFiles;
  if (output === undefined) return failed(new Error('esbuild wrote nothing'), log);
  const imports = dynamicImportsIn(output.text);
  if (imports.length > 0) return failed(new Error(`the bundle holds an import() a vm script cannot run: ${imports[0]}`), log);
  mkdirSync(outdir, { recursive: true });
  writeFileSync(script, `${SCRIPT_HEAD}${output.text}${SCRIPT_TAIL}`);
  // The cache is made by a fresh node with default flags (see above), not by this process.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_OPTIONS'));
  const made = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--make-code-cache'], { env, encoding: 'utf8' });
  if (made.status !== 0) {
    rmSync(cache, { force: true });
    log(`debussy bundle: no code cache (${(made.stderr || made.stdout).trim().split('\n')[0] ?? 'unknown error'}); the script compiles as it runs.`);
  }
  return 'bundled';
}

/** cosmiconfig's loaders import a JavaScript config file (and TypeScript) at run time: through the caller's import(). */
const importThroughCaller = {
  name: 'import-through-caller',
  setup(build) {
    build.onLoad({ filter: /[\\/]cosmiconfig[\\/]dist[\\/]loaders\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const replaced = text.replace(/\bimport\(/g, '__debussyImport(');
      if (replaced === text) throw new Error(`${args.path} no longer calls import(): see scripts/bundle.js`);
      return { contents: replaced, loader: 'js' };
    });
  },
};

/**
 * secretlint's rule preset imports node:fs and node:path at run time, in a rule debussy does not
 * run (a .p12 file's check, src/redact/vendor-rules.ts): a builtin is as well required.
 */
const builtinImportsAsRequire = {
  name: 'builtin-imports-as-require',
  setup(build) {
    build.onLoad({ filter: /[\\/]@secretlint[\\/]secretlint-rule-preset-recommend[\\/]module[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const replaced = text.replace(/\bimport\((['"])(node:[a-z_/]+)\1\)/g, 'Promise.resolve(require("$2"))');
      if (replaced === text) throw new Error(`${args.path} no longer imports a builtin at run time: see scripts/bundle.js`);
      return { contents: replaced, loader: 'js' };
    });
  },
};

/** Where the bundle still holds an import() expression (not `.import(`, not a name ending in import). */
function dynamicImportsIn(text) {
  return [...text.matchAll(/(?<![\w$.])import\s*\(/g)].map((match) => text.slice(Math.max(0, match.index - 60), match.index + 30).replace(/\s+/g, ' '));
}

function failed(error, log) {
  rmSync(outdir, { recursive: true, force: true });
  log(`debussy bundle: esbuild failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); debussy runs unbundled (dist/cli/start.js).`);
  return 'failed';
}

/**
 * Compiles every function of the script now (V8 compiles a function when it is first called by
 * default, and a cache holds only what was compiled), then writes V8's cache of it. The flag is
 * set back before the cache is made: V8 stamps a cache with a hash of the flags and rejects it
 * under other flags, and a debussy process runs with the default ones.
 */
function makeCodeCache() {
  const text = readFileSync(script, 'utf8');
  v8.setFlagsFromString('--no-lazy');
  const compiled = new vm.Script(text, { filename: script });
  v8.setFlagsFromString('--lazy');
  writeFileSync(cache, compiled.createCachedData());
}

// Run as a script (`npm run build`, the test setup): a failed bundle fails the build, since in a
// checkout esbuild is installed and a failure is a defect to see. prepare.js calls bundle() itself
// and lets an install go on unbundled.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--make-code-cache') makeCodeCache();
  else if ((await bundle()) === 'failed') process.exitCode = 1;
}
