// `npm run prepare`: builds dist/ for installs from git (`npm install -g github:debussy-cli/debussy`)
// and for `npm install` / `npm ci` in a checkout. Plain Node, so it runs before anything is built.
//
// A global git install runs `prepare` without the package's dependencies in reach (npm/cli#8440),
// and anything installed into the clone then breaks npm's own install of it. So TypeScript is then
// installed into a temporary folder and the build runs without type information (tsc still emits
// the same JavaScript; the type check is `npm test`'s job, in a checkout). Either way tsc only
// emits (--noCheck): the same JavaScript in 4.6 s of CPU instead of 11.9 s, measured here.
// A type error never fails an install: only a build that produced no CLI does.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = () => existsSync(path.join(root, 'dist', 'cli', 'main.js'));

function findTsc() {
  try {
    return createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const tsc = findTsc();
if (tsc !== undefined) {
  // `npm pack <git url>` runs prepare twice in one clone (at its install, then at its pack): the
  // second finds dist/ the build of these very sources (build.js's stamp) and skips tsc.
  // Emit only: the type check is `npm test`'s job, and an install should not wait for it.
  const result = build({ root, ifChanged: true, typeCheck: false });
  process.stderr.write(result.output);
  if (result.status !== 0) {
    if (!built()) process.exit(result.status);
    process.stderr.write('debussy prepare: the build reported errors (above); dist/ was written anyway. `npm test` shows them.\n');
  }
} else {
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies?.typescript ?? 'latest';
  const tools = mkdtempSync(path.join(os.tmpdir(), 'debussy-build-'));
  try {
    // The global install's settings (global, prefix, allow-scripts...) must not steer this one.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(global|globalconfig|prefix|location|allow_scripts|include|omit|production|only|also)$/i.test(key)));
    const install = spawnSync('npm', ['install', '--prefix', tools, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', `typescript@${version}`], { cwd: tools, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const toolTsc = path.join(tools, 'node_modules', 'typescript', 'bin', 'tsc');
    if (install.status !== 0 || !existsSync(toolTsc)) {
      process.stderr.write('debussy prepare: TypeScript could not be installed, so dist/ cannot be built. Install debussy from a checkout: npm install && npm install -g .\n');
      process.exit(1);
    }
    // The dependencies' types are out of reach here: their diagnostics are expected and not shown.
    spawnSync(process.execPath, [toolTsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: root, stdio: 'ignore' });
    if (!built()) {
      process.stderr.write('debussy prepare: the build wrote no dist/cli/main.js.\n');
      process.exit(1);
    }
  } finally {
    rmSync(tools, { recursive: true, force: true });
  }
}
