import { describe, expect, it } from 'vitest';
import { runClaudeOnce } from '../support/claude.js';
import { recordStreamFixture } from '../support/fixtures.js';
import { useClaude, useScriptedApi, useTempGitRepo } from '../support/per-test.js';
import { findDescendants, isAlive, killTree } from '../support/process-tree.js';
import type { ScriptedApi, ScriptedApiOptions } from '../support/scripted-api.js';
import { isToolUseLine, linesOfType, resultLine, userContentBlocks } from '../support/stream-lines.js';

async function setup(options: ScriptedApiOptions): Promise<{ api: ScriptedApi; dir: string }> {
  return { api: await useScriptedApi(options), dir: await useTempGitRepo() };
}

async function waitForDescendant(rootPid: number, pattern: RegExp): Promise<number> {
  let found: number[] = [];
  await expect.poll(async () => (found = await findDescendants(rootPid, pattern)).length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
  return found[0]!;
}

describe('stalls, signals and timeouts with the real claude CLI', () => {
  it.each([true, false])('ends a stall (afterHeaders: %s) when the server closes; the CLI reports a connection error', async (afterHeaders) => {
    const { api, dir } = await setup({ script: [{ kind: 'stall', afterHeaders }] });
    const running = await useClaude({ cwd: dir, prompt: 'go', apiUrl: api.url });
    await api.waitForMainRequest(1);
    await running.waitForLine((l) => (l as { status?: string }).status === 'requesting');
    await api.close();
    const run = await running.done;
    if (afterHeaders) await recordStreamFixture('stall-then-server-closed', run);

    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(1);
    expect(api.mainRequests()[0]?.aborted).toBe(true);
    expect(resultLine(run.lines)).toMatchObject({ is_error: true, api_error_status: null });
    // 2.1.197: "API Error: Unable to connect ..."; 2.1.332: "Connection refused — ..." / "Connection dropped (ECONNRESET) ...".
    expect(String(resultLine(run.lines)?.result)).toMatch(/^API Error: (?:Unable to connect|Connection (?:refused|dropped))/);
  });

  it('SIGINT while a Bash tool runs kills the tool and ends the turn: an aborted tool_result, then (usually) an error_during_execution result', async () => {
    const { api, dir } = await setup({
      script: [
        { kind: 'tool_use', name: 'Bash', input: { command: 'echo started; sleep 30; echo finished > finished.txt' } },
        { kind: 'text', text: 'must not be requested' },
      ],
    });
    const running = await useClaude({ cwd: dir, prompt: 'sleep a while', apiUrl: api.url });
    await running.waitForLine((l) => isToolUseLine(l, 'Bash'));
    const sleeper = await waitForDescendant(running.pid, /^sleep 30/);
    running.signal('SIGINT');
    const run = await running.done;
    await recordStreamFixture('sigint-during-tool', run);

    expect(run.timedOut).toBe(false);
    expect(api.mainRequests()).toHaveLength(1);
    expect(userContentBlocks(run.lines)).toContainEqual(expect.objectContaining({ type: 'tool_result', is_error: true }));
    // 2.1.332 under load: 1 run in 16 (measured with four test files at a time on 2 cores) exits 0
    // right after that tool_result, with no result line. debussy reads a stop it signalled that
    // ends without a result as 'stopped' (src/agent/session-outcome.ts), as it does with one.
    const result = resultLine(run.lines);
    if (result === undefined) expect(run.exitCode).toBe(0);
    else expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    // The tool shell is in its own session; the CLI kills it itself on SIGINT (it may linger as a zombie of pid 1).
    await expect.poll(() => isAlive(sleeper), { timeout: 5_000 }).toBe(false);
  });

  it('SIGINT while waiting for the API ends the session, with at most an aborted_streaming result', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'stall', afterHeaders: true }] });
    const running = await useClaude({ cwd: dir, prompt: 'go', apiUrl: api.url });
    await api.waitForMainRequest(1);
    await running.waitForLine((l) => (l as { status?: string }).status === 'requesting');
    running.signal('SIGINT');
    const run = await running.done;
    await recordStreamFixture('sigint-waiting-for-api', run);

    expect(run.timedOut).toBe(false);
    expect(linesOfType(run.lines, 'system', 'init')).toHaveLength(1);
    // CLAUDE_CODE.md: there may be no result at all; with 2.1.197 one usually comes.
    const result = resultLine(run.lines);
    if (result !== undefined) expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming' });
    await expect.poll(() => api.mainRequests()[0]?.aborted).toBe(true);
  });

  it('killTree (what the timeout uses) ends the CLI and the tool shells it started in their own sessions', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'tool_use', name: 'Bash', input: { command: '(sleep 40)' } }] });
    const running = await useClaude({ cwd: dir, prompt: 'go', apiUrl: api.url });
    await running.waitForLine((l) => isToolUseLine(l, 'Bash'));
    const sleeper = await waitForDescendant(running.pid, /^sleep 40/);
    await killTree(running.pid, 'SIGKILL');
    const run = await running.done;
    expect(run.signal).toBe('SIGKILL');
    expect(resultLine(run.lines)).toBeUndefined();
    await expect.poll(() => isAlive(sleeper), { timeout: 5_000 }).toBe(false);
  });

  it('runClaudeOnce reports timedOut and SIGKILL when the CLI outlives timeoutMs', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'stall', afterHeaders: true }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url, timeoutMs: 4_000 });
    expect(run.timedOut).toBe(true);
    expect(run.signal).toBe('SIGKILL');
    expect(resultLine(run.lines)).toBeUndefined();
  });
});
