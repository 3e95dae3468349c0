// `npm run prepare`: builds dist/ for installs from git (`npm install -g github:debussy-cli/debussy`)
// and for `npm install` / `npm ci` in a checkout. Plain Node, so it runs before anything is built.
//
// npm installs a git package globally without its devDependencies in reach of `prepare`
// (npm/cli#8440): then TypeScript is installed here first, into this folder only.
// A type error does not fail an install (tsc still emits; `npm run check` reports it): only a
// build that produced no CLI does.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(new URL('../package.json', import.meta.url));

function findTsc() {
  try {
    return require.resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

let tsc = findTsc();
if (tsc === undefined) {
  // The global install's settings (global, prefix, allow-scripts...) must not steer this local one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(global|globalconfig|prefix|location|allow_scripts|include|omit|production|only|also)$/i.test(key)));
  const installed = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--include=dev', '--ignore-scripts', '--location=project', '--no-audit', '--no-fund'], { cwd: root, env, stdio: 'inherit' });
  if (installed.status !== 0) process.stderr.write('debussy prepare: installing the build tools failed\n');
  tsc = findTsc();
}
if (tsc === undefined) {
  process.stderr.write('debussy prepare: TypeScript is not installed, so dist/ cannot be built. Run `npm install` in the package folder, then `npm run build`.\n');
  process.exit(1);
}

const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) process.exit(build.status ?? 1);
  process.stderr.write('debussy prepare: the build reported type errors (above); dist/ was written anyway. `npm run check` shows them.\n');
}
