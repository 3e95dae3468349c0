// `node scripts/bundle.js`: packs the built CLI (dist/cli/main.js, everything it imports, and the
// dependencies it uses) into a few files in dist/bundle/, which bin/debussy.js runs when present.
// Plain Node, run after tsc by `npm run build`, `prepare` and the test suite's global setup.
//
// Why: Node 20 has no compile cache for ES modules, and `debussy run` loaded ~470 files (execa
// alone ~110, yaml ~70). Resolving, reading and compiling them one by one was a fifth of the run's
// own CPU before its first session; bundled, the run spends ~90 ms less (docs/performance.md,
// figure 7). Nothing else changes:
// - The bundle is made from tsc's output, so it runs exactly the JavaScript the tests check.
// - Lazy `import()`s stay lazy (code splitting): `done`, `progress` and `status` still load
//   neither execa nor simple-git, and the live view's text measuring loads only with the live view.
// - dist/bundle/ sits two levels below the package root like every dist/<folder>/<module>.js, so
//   the paths modules compute from import.meta.url (templates, docs, package.json, bin) hold.
// - Without esbuild (a git install whose build tools could not be fetched) there is no bundle, and
//   bin/debussy.js runs dist/cli/main.js as before.
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = path.join(root, 'dist', 'bundle');
const entry = path.join(root, 'dist', 'cli', 'main.js');

/**
 * Bundles dist/cli/main.js into dist/bundle/ with the esbuild found from `resolveFrom` (a folder
 * whose node_modules holds it; the package root by default). Says what happened: 'bundled',
 * 'no-esbuild' or 'failed'; any old bundle is removed first, so a stale one never runs.
 * `dependenciesMayBeMissing`: a global install from git builds before its dependencies are
 * installed (npm/cli#8440); then debussy's own modules are bundled and the dependencies load from
 * node_modules at run time.
 */
export async function bundle({ resolveFrom = root, dependenciesMayBeMissing = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  if (!existsSync(entry)) {
    log('debussy bundle: dist/cli/main.js is missing (run tsc first); no bundle written.');
    return 'failed';
  }
  let esbuild;
  try {
    const resolved = createRequire(path.join(resolveFrom, 'package.json')).resolve('esbuild');
    esbuild = await import(pathToFileURL(resolved).href);
  } catch {
    log('debussy bundle: esbuild is not installed; debussy runs unbundled (dist/cli/main.js).');
    return 'no-esbuild';
  }
  const options = {
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    // cosmiconfig requires TypeScript only to read a config file written in TypeScript, from
    // wherever the user has it: never part of the bundle.
    external: ['typescript'],
    // CommonJS dependencies (commander, yaml, cosmiconfig, simple-git) call require(): give
    // each output file one, as in a CommonJS module.
    banner: { js: "import { createRequire as __debussyCreateRequire } from 'node:module'; const require = __debussyCreateRequire(import.meta.url);" },
    logLevel: dependenciesMayBeMissing ? 'silent' : 'error',
  };
  try {
    await esbuild.build(options);
    return 'bundled';
  } catch (error) {
    if (!dependenciesMayBeMissing) return failed(error, log);
  }
  try {
    await esbuild.build({ ...options, packages: 'external', logLevel: 'error' });
    return 'bundled';
  } catch (error) {
    return failed(error, log);
  }
}

function failed(error, log) {
  rmSync(outdir, { recursive: true, force: true });
  log(`debussy bundle: esbuild failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); debussy runs unbundled (dist/cli/main.js).`);
  return 'failed';
}

// Run as a script (`npm run build`, the test setup): a failed bundle fails the build, since in a
// checkout esbuild is installed and a failure is a defect to see. prepare.js calls bundle() itself
// and lets an install go on unbundled.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if ((await bundle()) === 'failed') process.exitCode = 1;
}
