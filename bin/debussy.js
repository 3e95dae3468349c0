#!/usr/bin/env node
import { existsSync } from 'node:fs';
import module from 'node:module';

// An install whose build did not run (`npm install -g github:...`: npm 11 skips a git package's
// `prepare` unless allowed) has no dist/: one line with the fix instead of ERR_MODULE_NOT_FOUND.
if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
  process.stderr.write(
    'debussy: this install has no build (dist/ is missing), so it cannot run.\n' +
      '  Install a packed copy, which npm builds: npm install -g "$(npm pack <the git URL or folder you installed from> | tail -n 1)" (in a checkout: npm ci, or npm run build).\n',
  );
  process.exit(1);
}

// Node's own cache of compiled modules (Node >= 22.8; absent in Node 20, where this does nothing):
// the modules a command loads are compiled once, not at every start (docs/decisions.md).
module.enableCompileCache?.();

// The agent's done/progress inside a session take a lean path (src/agent-signals/in-session-signal.ts); it
// declines anything it does not handle, and the full CLI takes over.
const [, , command] = process.argv;
let code;
if (process.env.DEBUSSY_RUN_ID && (command === 'done' || command === 'progress')) {
  const { runInSessionSignal } = await import('../dist/agent-signals/in-session-signal.js');
  code = runInSessionSignal(process.argv.slice(2), process.env);
}
if (code !== undefined) process.exitCode = code;
else await import('../dist/cli/start.js');
