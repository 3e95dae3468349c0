#!/usr/bin/env node
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** Modification time in ms, or undefined when the file is not there. */
function modifiedAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

// An install whose build did not run (`npm install -g github:...`: npm 11 skips a git package's
// `prepare` unless allowed) has no dist/: one line with the fix instead of ERR_MODULE_NOT_FOUND.
const modules = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const modulesAt = modifiedAt(modules);
if (modulesAt === undefined) {
  process.stderr.write(
    'debussy: this install has no build (dist/ is missing), so it cannot run.\n' +
      '  Install a packed copy, which npm builds: npm install -g "$(npm pack <the git URL or folder you installed from> | tail -n 1)" (in a checkout: npm ci, or npm run build).\n',
  );
  process.exit(1);
}

const script = fileURLToPath(new URL('../dist/bundle/cli-script.js', import.meta.url));
const cache = fileURLToPath(new URL('../dist/bundle/cli-script.cache', import.meta.url));

/**
 * Runs the CLI from the script scripts/bundle.js made of dist/ (one file instead of ~470 modules),
 * with V8's compiled code from its cache when the cache is as new as the script (V8 itself rejects
 * a cache made by another node or under other flags: the script then compiles as it runs). False
 * when there is no script, or it is older than the modules (tsc ran again without bundling).
 */
async function runScript() {
  const scriptAt = modifiedAt(script);
  if (scriptAt === undefined || scriptAt < modulesAt) return false;
  const cacheAt = modifiedAt(cache);
  const cachedData = cacheAt !== undefined && cacheAt >= scriptAt ? readFileSync(cache) : undefined;
  const compiled = new vm.Script(readFileSync(script, 'utf8'), {
    filename: script,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} };
  // The script's import() (a JavaScript config file, see scripts/bundle.js) is this module's.
  const importModule = (specifier) => import(specifier);
  compiled.runInThisContext()(module.exports, createRequire(script), module, script, path.dirname(script), importModule);
  await module.exports.main(process.argv);
  return true;
}

// The agent's done/progress inside a session take a lean path (src/agent-signals/in-session-signal.ts); it
// declines anything it does not handle, and the full CLI takes over.
const [, , command] = process.argv;
let code;
if (process.env.DEBUSSY_RUN_ID && (command === 'done' || command === 'progress')) {
  const { runInSessionSignal } = await import('../dist/agent-signals/in-session-signal.js');
  code = runInSessionSignal(process.argv.slice(2), process.env);
}
if (code !== undefined) process.exitCode = code;
else if (!(await runScript())) await import('../dist/cli/start.js');
