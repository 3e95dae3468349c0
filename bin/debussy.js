#!/usr/bin/env node
import { existsSync, statSync } from 'node:fs';

// An install whose build did not run (`npm install -g github:...`: npm 11 skips a git package's
// `prepare` unless allowed) has no dist/: one line with the fix instead of ERR_MODULE_NOT_FOUND.
const unbundled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(unbundled)) {
  process.stderr.write(
    'debussy: this install has no build (dist/ is missing), so it cannot run.\n' +
      '  Install a packed copy, which npm builds: npm install -g "$(npm pack <the git URL or folder you installed from> | tail -n 1)" (in a checkout: npm ci, or npm run build).\n',
  );
  process.exit(1);
}

/**
 * The CLI bundled by scripts/bundle.js (a few files instead of ~470 modules to load), unless there
 * is none or it is older than tsc's output (tsc was run again without bundling): then the modules.
 */
function cliEntry() {
  const bundled = new URL('../dist/bundle/main.js', import.meta.url);
  try {
    return statSync(bundled).mtimeMs >= statSync(unbundled).mtimeMs ? bundled : unbundled;
  } catch {
    return unbundled;
  }
}

// The agent's done/progress inside a session take a lean path (src/agent-signals/in-session-signal.ts); it
// declines anything it does not handle, and the full CLI takes over.
const [, , command] = process.argv;
let code;
if (process.env.DEBUSSY_RUN_ID && (command === 'done' || command === 'progress')) {
  const { runInSessionSignal } = await import('../dist/agent-signals/in-session-signal.js');
  code = runInSessionSignal(process.argv.slice(2), process.env);
}
if (code === undefined) await import(cliEntry().href);
else process.exitCode = code;
