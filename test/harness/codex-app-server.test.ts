/**
 * Facts about `codex app-server` (0.171.0) that debussy's codex agent relies on, measured through
 * the real binary against the scripted Responses server: per-call usage and its timing, the
 * window, what the next call's input holds, tools, items and the turn's end.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, itemsOf, runTurn, wallClock } from '../support/codex-turn.js';
import { ENCRYPTED_PREFIX, applyPatch, execCommand, inputItems, promptText, toolOutputs } from '../support/scripted-responses.js';

describe('codex app-server: one turn with a tool', () => {
  it('runs exec_command for real, reports per-call usage before the tool runs and the window after it, and appends to the history', async () => {
    const { server, cwd, client, threadId, completed } = await runTurn(
      [
        { kind: 'calls', text: 'Writing the file.', calls: [execCommand('echo hi > out.txt && echo wrote', 'call_write')] },
        { kind: 'text', text: 'The file is written.' },
      ],
      'Create out.txt containing hi',
    );
    expect(await readFile(join(cwd, 'out.txt'), 'utf8')).toBe('hi\n');
    expect(completed.params).toMatchObject({ threadId, turn: { status: 'completed', error: null } });

    const [first, second] = server.responseRequests();
    expect(server.responseRequests()).toHaveLength(2);
    expect(first).toMatchObject({ kind: 'turn', body: { model: 'gpt-5.5', stream: true, store: false } });
    expect(first?.headers.authorization).toBe('Bearer sk-scripted-test-key');
    expect(promptText(first!)).toBe('Create out.txt containing hi');
    // The history only grows: the second request is the first one's input plus the call and its output.
    const before = inputItems(first!);
    const after = inputItems(second!);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output']);
    expect(toolOutputs(second!)).toEqual([{ callId: 'call_write', output: expect.stringMatching(/Process exited with code 0\n[\s\S]*Output:\nwrote\n$/) as string }]);

    // rawResponse/completed: each call's usage as the API reported it, once per response id,
    // before that response's tools run.
    const raw = client.notifications('rawResponse/completed');
    expect(raw.map((n) => n.params.responseId)).toEqual(['resp_scripted_0', 'resp_scripted_1']);
    const output = (raw[0]?.params.usage as { outputTokens: number }).outputTokens;
    expect(output).toBeGreaterThan(5);
    expect(raw[0]?.params.usage).toEqual({
      totalTokens: first!.trueTokens + output,
      inputTokens: first!.trueTokens,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      outputTokens: output,
      reasoningOutputTokens: 0,
    });
    const [toolStarted] = itemsOf(client, 'item/started', 'commandExecution');
    const [toolCompleted] = itemsOf(client, 'item/completed', 'commandExecution');
    expect(raw[0]!.at).toBeLessThan(toolStarted!.at);

    // thread/tokenUsage/updated: last call and thread total, with the window; it waits for the
    // tools, and still arrives before the next request.
    const usage = client.notifications('thread/tokenUsage/updated');
    expect(usage).toHaveLength(2);
    expect(usage[0]?.params.tokenUsage).toMatchObject({ modelContextWindow: 258_400, last: { inputTokens: first!.trueTokens }, total: { inputTokens: first!.trueTokens } });
    expect(usage[1]?.params.tokenUsage).toMatchObject({ last: { inputTokens: second!.trueTokens }, total: { inputTokens: first!.trueTokens + second!.trueTokens } });
    expect(usage[0]!.at).toBeGreaterThan(toolCompleted!.at);
    expect(wallClock(client, usage[0]!.at)).toBeLessThanOrEqual(second!.receivedAt);

    // The shell item: the command as run (`bash -c`, `-lc` without login: false), the model's own in commandActions.
    expect(toolStarted?.item).toMatchObject({ id: 'call_write', status: 'inProgress', command: "/bin/bash -c 'echo hi > out.txt && echo wrote'", cwd });
    expect(toolCompleted?.item).toMatchObject({ id: 'call_write', status: 'completed', exitCode: 0, commandActions: [{ command: 'echo hi > out.txt && echo wrote' }] });
    expect(String(toolCompleted?.item.aggregatedOutput)).toMatch(/wrote\n$/);
    expect(itemsOf(client, 'item/completed', 'agentMessage').map((i) => i.item.text)).toEqual(['Writing the file.', 'The file is written.']);
    await finish(client, 'tool-session');
  });

  it('starts a tool at its output item, before the response completes and its usage is known', async () => {
    const { server, client } = await runTurn([{ kind: 'calls', calls: [execCommand('echo early')], completeDelayMs: 1_500 }, { kind: 'text', text: 'ok' }]);
    const [started] = itemsOf(client, 'item/started', 'commandExecution');
    const [raw] = client.notifications('rawResponse/completed');
    expect(started!.at).toBeLessThan(raw!.at - 1_000);
    expect(server.responseRequests()).toHaveLength(2);
    await finish(client);
  });

  it('runs several calls of one response in parallel and sends every output back; reasoning items return as sent', async () => {
    const { server, client } = await runTurn([
      { kind: 'calls', reasoning: 'two things at once', calls: [execCommand('sleep 1; echo a', 'call_a'), execCommand('sleep 1; echo b', 'call_b')] },
      { kind: 'text', text: 'both done' },
    ]);
    const started = itemsOf(client, 'item/started', 'commandExecution');
    const completed = itemsOf(client, 'item/completed', 'commandExecution');
    // They start in either order.
    expect(started.map((s) => s.item.id).sort()).toEqual(['call_a', 'call_b']);
    // Both started before either finished.
    expect(Math.max(...started.map((s) => s.at))).toBeLessThan(Math.min(...completed.map((c) => c.at)));
    const second = server.responseRequests()[1]!;
    expect(toolOutputs(second).map((o) => o.callId)).toEqual(['call_a', 'call_b']);
    const reasoning = inputItems(second).filter((item) => item.type === 'reasoning');
    expect(reasoning).toEqual([expect.objectContaining({ encrypted_content: ENCRYPTED_PREFIX + Buffer.from('two things at once').toString('base64') })]);
    expect(client.notifications('rawResponse/completed')[0]?.params.usage).toMatchObject({ reasoningOutputTokens: 4 });
    await finish(client, 'parallel-calls');
  });

  it('answers a command still running after yield_time_ms with its session id; the process runs on and its item does not complete within the turn', async () => {
    const { server, client } = await runTurn([
      { kind: 'calls', calls: [execCommand('sleep 2; echo late', 'call_slow', { yield_time_ms: 500 })] },
      { kind: 'text', text: 'it is still running' },
    ]);
    expect(toolOutputs(server.responseRequests()[1]!)).toEqual([{ callId: 'call_slow', output: expect.stringMatching(/^Chunk ID: \w+\nWall time: 0\.\d+ seconds\nProcess running with session ID \d+\n/) as string }]);
    expect(itemsOf(client, 'item/started', 'commandExecution')).toHaveLength(1);
    const completedInTurn = itemsOf(client, 'item/completed', 'commandExecution');
    const turnEnd = client.notifications('turn/completed')[0]!.at;
    expect(completedInTurn.filter((c) => c.at < turnEnd)).toEqual([]);
    await finish(client);
  });

  it('applies an apply_patch (a custom tool call) as a fileChange item; its output returns as custom_tool_call_output', async () => {
    const patch = '*** Begin Patch\n*** Add File: notes.md\n+# Notes\n+first line\n*** End Patch\n';
    const { server, cwd, client } = await runTurn([{ kind: 'calls', calls: [applyPatch(patch, 'call_patch')] }, { kind: 'text', text: 'written' }]);
    expect(await readFile(join(cwd, 'notes.md'), 'utf8')).toBe('# Notes\nfirst line\n');
    const [completed] = itemsOf(client, 'item/completed', 'fileChange');
    expect(completed?.item).toMatchObject({ id: 'call_patch', status: 'completed', changes: [{ path: join(cwd, 'notes.md'), kind: { type: 'add' } }] });
    const output = inputItems(server.responseRequests()[1]!).find((item) => item.type === 'custom_tool_call_output');
    expect(output).toMatchObject({ call_id: 'call_patch' });
    expect(itemsOf(client, 'item/started', 'commandExecution')).toEqual([]);
    await finish(client, 'apply-patch');
  });
});
