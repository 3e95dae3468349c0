/**
 * Resources of a codex harness test, each released when the test finishes, pass or fail: the
 * scripted server, the temp CODEX_HOME, the temp repo and codex's process tree.
 */
import { onTestFinished } from 'vitest';
import { startAppServer, type AppServerClient, type AppServerOptions } from './codex-app-server.js';
import { makeCodexHome, spawnCodex, type CodexHomeOptions, type CodexSpawnOptions, type RunningCodex } from './codex.js';
import { killTree } from './process-tree.js';
import { startScriptedResponses } from './scripted-responses.js';
import type { ScriptedResponses, ScriptedResponsesOptions } from './scripted-responses.js';

export async function useScriptedResponses(options: ScriptedResponsesOptions): Promise<ScriptedResponses> {
  const server = await startScriptedResponses(options);
  onTestFinished(() => server.close());
  return server;
}

export async function useCodexHome(options: CodexHomeOptions): Promise<string> {
  const home = await makeCodexHome(options);
  onTestFinished(home.cleanup);
  return home.dir;
}

function killOnFinish(codex: RunningCodex): void {
  onTestFinished(async () => {
    await killTree(codex.pid, 'SIGKILL');
    await codex.done;
  });
}

export function useCodex(opts: CodexSpawnOptions): RunningCodex {
  const codex = spawnCodex(opts);
  killOnFinish(codex);
  return codex;
}

export function useAppServer(opts: AppServerOptions): AppServerClient {
  const client = startAppServer(opts);
  killOnFinish(client.codex);
  return client;
}
