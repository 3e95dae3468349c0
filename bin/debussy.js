#!/usr/bin/env node
// The agent's done/progress inside a session take a lean path (src/agent-signals/in-session-signal.ts); it
// declines anything it does not handle, and the full CLI takes over.
const [, , command] = process.argv;
let code;
if (process.env.DEBUSSY_RUN_ID && (command === 'done' || command === 'progress')) {
  const { runInSessionSignal } = await import('../dist/agent-signals/in-session-signal.js');
  code = runInSessionSignal(process.argv.slice(2), process.env);
}
if (code === undefined) await import('../dist/cli/main.js');
else process.exitCode = code;
