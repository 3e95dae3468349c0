/** One app-server session of a harness test: scripted server, temp CODEX_HOME and repo, a thread and a turn. */
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { ThreadSettings } from '../../src/agent/codex/app-server-protocol.js';
import type { AppServerClient } from './codex-app-server.js';
import { recordCodexFixture } from './codex-fixtures.js';
import { useAppServer, useCodexHome, useScriptedResponses } from './codex-per-test.js';
import { rolloutFiles } from './codex.js';
import { useTempGitRepo } from './per-test.js';
import type { ResponsesTurn } from './scripted-responses.js';

type Params = Record<string, unknown>;

export function fullAccess(cwd: string): ThreadSettings {
  return { cwd, approvalPolicy: 'never', sandbox: 'danger-full-access' };
}

export interface TurnOptions {
  /** app-server flags, e.g. `-c hooks.PreToolUse=[...]`. */
  args?: string[];
  settings?: (cwd: string) => ThreadSettings;
  /** The provider's request and stream retries (default 0). */
  retries?: number;
  extraToml?: string;
}

/** A thread with a turn started (not awaited). */
export async function openTurn(script: ResponsesTurn[], prompt = 'Do the task', opts: TurnOptions = {}) {
  const server = await useScriptedResponses({ script });
  const home = await useCodexHome({ baseUrl: server.baseUrl, retries: opts.retries, extraToml: opts.extraToml });
  const cwd = await useTempGitRepo();
  const client = useAppServer({ cwd, home, args: opts.args });
  const threadId = await client.startThread((opts.settings ?? fullAccess)(cwd));
  const turnId = await client.startTurn(threadId, prompt);
  return { server, home, cwd, client, threadId, turnId };
}

/** A thread with one turn run to its turn/completed. */
export async function runTurn(script: ResponsesTurn[], prompt = 'Do the task', opts: TurnOptions = {}) {
  const session = await openTurn(script, prompt, opts);
  const completed = await session.client.waitForNotification('turn/completed');
  return { ...session, completed };
}

/** When a notification arrived, on the wall clock (to compare with the server's receivedAt). */
export function wallClock(client: AppServerClient, at: number): number {
  return client.codex.startedAt + at;
}

export function itemsOf(client: AppServerClient, method: 'item/started' | 'item/completed', type: string): Array<{ at: number; item: Params }> {
  return client.notifications(method).flatMap((n) => {
    const item = n.params.item as Params;
    return item.type === type ? [{ at: n.at, item }] : [];
  });
}

export async function finish(client: AppServerClient, name?: string): Promise<void> {
  client.close();
  const result = await client.codex.done;
  expect(result.exitCode).toBe(0);
  if (name !== undefined) {
    await recordCodexFixture(name, 'app-server', result.lines.map((l) => l.raw), { exitCode: result.exitCode, signal: result.signal, stderr: '' });
    const [rollout] = await rolloutFiles(client.codex.home);
    if (rollout !== undefined) await recordCodexFixture(name, 'rollout', (await readFile(rollout, 'utf8')).split('\n').filter((l) => l !== ''));
  }
}

