import { onTestFinished } from 'vitest';
import { startClaude, tempGitRepo } from './claude.js';
import type { ClaudeRunOptions, RunningClaude } from './claude.js';
import { killTree } from './process-tree.js';
import { startScriptedApi } from './scripted-api.js';
import type { ScriptedApi, ScriptedApiOptions } from './scripted-api.js';

/*
 * Resources tied to the running test: each is released when the test finishes, pass or fail, so
 * a failing assertion never leaks a server, a temp repo or a claude process. Call them only from
 * inside a test body.
 */

/** A scripted api closed when the test finishes. */
export async function useScriptedApi(options: ScriptedApiOptions): Promise<ScriptedApi> {
  const api = await startScriptedApi(options);
  onTestFinished(() => api.close());
  return api;
}

/** A temp git repo (see tempGitRepo) removed when the test finishes. */
export async function useTempGitRepo(files?: Record<string, string>): Promise<string> {
  const repo = await tempGitRepo(files);
  onTestFinished(repo.cleanup);
  return repo.dir;
}

/** A running claude whose process tree is SIGKILLed (if still there) when the test finishes. */
export async function useClaude(opts: ClaudeRunOptions): Promise<RunningClaude> {
  const running = await startClaude(opts);
  onTestFinished(async () => {
    await killTree(running.pid, 'SIGKILL');
    await running.done;
  });
  return running;
}
