/**
 * codex 0.171.0 app-server threads over time: its own compaction (which debussy must stay ahead
 * of), resuming a saved thread, and the sandbox each permission choice gives the agent's commands.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFlags } from '../../src/agent/codex/codex-command.js';
import { useAppServer } from '../support/codex-per-test.js';
import { finish, fullAccess, itemsOf, runTurn } from '../support/codex-turn.js';
import { execCommand, inputItems, promptText, toolNames, userTexts } from '../support/scripted-responses.js';
import type { ResponsesTurn } from '../support/scripted-responses.js';

const bigCall = (inputTokens: number): ResponsesTurn[] => [
  { kind: 'calls', calls: [execCommand('echo one')], usage: { input_tokens: inputTokens, output_tokens: 20 } },
  { kind: 'text', text: 'SUMMARY: the work so far' },
  { kind: 'text', text: 'continued after the summary' },
];

describe("codex app-server's own compaction", () => {
  it('compacts mid-turn once a call reaches 90% of the 272,000-token window (total 245,020): a summary request without tools, then the turn goes on from the summary', async () => {
    const { server, client } = await runTurn(bigCall(245_000));
    const requests = server.responseRequests();
    expect(requests.map((r) => r.kind)).toEqual(['turn', 'compaction', 'turn']);
    expect(toolNames(requests[1]!)).toEqual([]);
    expect(userTexts(requests[1]!).at(-1)).toMatch(/^You are performing a CONTEXT CHECKPOINT COMPACTION/);
    // After it the model sees the summary instead of the history.
    expect(userTexts(requests[2]!).some((text) => text.includes('SUMMARY: the work so far'))).toBe(true);
    expect(inputItems(requests[2]!).some((item) => item.type === 'function_call')).toBe(false);
    const started = itemsOf(client, 'item/started', 'contextCompaction');
    const completed = itemsOf(client, 'item/completed', 'contextCompaction');
    expect(started).toHaveLength(1);
    expect(completed).toHaveLength(1);
    expect(client.codex.startedAt + started[0]!.at).toBeLessThanOrEqual(requests[1]!.receivedAt);
    // The deprecated thread/compacted is not sent.
    expect(client.notifications('thread/compacted')).toEqual([]);
    await finish(client, 'compaction');
  });

  it('does not compact at 244,020 tokens', async () => {
    const { server, client } = await runTurn(bigCall(244_000));
    expect(server.responseRequests().map((r) => r.kind)).toEqual(['turn', 'turn']);
    expect(itemsOf(client, 'item/started', 'contextCompaction')).toEqual([]);
    await finish(client);
  });

  it('runs a PreCompact hook but compacts even when it exits 2', async () => {
    const hook = configFlags({ 'hooks.PreCompact': [{ hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] });
    const { server, client } = await runTurn(bigCall(245_000), 'go', { args: hook, settings: (cwd) => ({ ...fullAccess(cwd), config: { bypass_hook_trust: true } }) });
    expect(client.notifications('hook/completed').map((n) => (n.params.run as Record<string, unknown>).eventName)).toContain('preCompact');
    expect(server.responseRequests().map((r) => r.kind)).toEqual(['turn', 'compaction', 'turn']);
    await finish(client);
  });
});

describe('resuming a codex thread (thread/resume in a new app-server)', () => {
  it('re-sends the whole saved history, keeps the thread totals, and sends no rawResponse/completed', async () => {
    const first = await runTurn([{ kind: 'calls', calls: [execCommand('echo one')] }, { kind: 'text', text: 'first turn done' }], 'First prompt');
    await finish(first.client);
    const client = useAppServer({ cwd: first.cwd, home: first.home });
    const threadId = await client.resumeThread(first.threadId, fullAccess(first.cwd));
    expect(threadId).toBe(first.threadId);
    await client.startTurn(threadId, 'Second prompt');
    const completed = await client.waitForNotification('turn/completed');
    expect(completed.params).toMatchObject({ turn: { status: 'completed' } });

    const [before1, before2, resumed] = first.server.responseRequests();
    expect(promptText(resumed!)).toBe('First prompt');
    expect(userTexts(resumed!).at(-1)).toBe('Second prompt');
    const earlier = inputItems(before2!).map((item) => item.type);
    expect(inputItems(resumed!).map((item) => item.type).slice(0, earlier.length)).toEqual(earlier);
    expect(client.notifications('rawResponse/completed')).toEqual([]);
    // The first tokenUsage comes before turn/started and restores the saved thread (its last call);
    // the resumed call's own follows it.
    const turnStarted = client.notifications('turn/started')[0]!.at;
    const usage = client.notifications('thread/tokenUsage/updated').map((n) => ({ at: n.at, ...(n.params.tokenUsage as { last: { inputTokens: number }; total: { inputTokens: number } }) }));
    expect(usage).toHaveLength(2);
    expect(usage[0]!.at).toBeLessThan(turnStarted);
    expect(usage[0]).toMatchObject({ last: { inputTokens: before2!.trueTokens }, total: { inputTokens: before1!.trueTokens + before2!.trueTokens } });
    expect(usage[1]).toMatchObject({ last: { inputTokens: resumed!.trueTokens }, total: { inputTokens: before1!.trueTokens + before2!.trueTokens + resumed!.trueTokens } });
    await finish(client, 'resumed');
  });
});

describe('the sandbox of each permission choice (approval never)', () => {
  const probe = 'echo a > in-cwd.txt; echo b > .git/probe; echo c > /tmp/debussy-codex-probe-$$ && rm /tmp/debussy-codex-probe-$$ && echo tmp-ok';

  it('workspace-write: the cwd is writable, .git is not, /tmp is', async () => {
    const { server, cwd, client } = await runTurn([{ kind: 'calls', calls: [execCommand(probe)] }, { kind: 'text', text: 'ok' }], 'go', {
      settings: (dir) => ({ cwd: dir, approvalPolicy: 'never', sandbox: 'workspace-write' }),
    });
    expect(await readFile(join(cwd, 'in-cwd.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(join(cwd, '.git', 'probe'))).toBe(false);
    const output = JSON.stringify(server.responseRequests()[1]?.body);
    expect(output).toContain('.git/probe: Read-only file system');
    expect(output).toContain('tmp-ok');
    expect(client.notifications().filter((n) => n.method.endsWith('requestApproval'))).toEqual([]);
    await finish(client);
  });

  it('read-only: nothing in the cwd is written', async () => {
    const { cwd, client } = await runTurn([{ kind: 'calls', calls: [execCommand(probe)] }, { kind: 'text', text: 'ok' }], 'go', {
      settings: (dir) => ({ cwd: dir, approvalPolicy: 'never', sandbox: 'read-only' }),
    });
    expect(existsSync(join(cwd, 'in-cwd.txt'))).toBe(false);
    await finish(client);
  });
});
