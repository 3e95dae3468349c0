/** The app-server parser on lines the recordings do not cover: fallbacks, repeats, the unexpected. */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agent-events.js';
import { keepInRawLog, newCodexParseState, parseAppServerLine, toolCallIdOf, toolCallIdsOfCall, type CodexParseState } from '../../../src/agent/codex/app-server-events.js';
import { classifyMessage } from '../../../src/agent/codex/app-server-protocol.js';
import { codexTool, modelCommand } from '../../../src/agent/codex/codex-tools.js';
import { outputFailed, patchFiles } from '../../../src/agent/codex/rollout-events.js';

function feed(state: CodexParseState, ...messages: unknown[]): AgentEvent[] {
  return messages.flatMap((m) => parseAppServerLine(typeof m === 'string' ? m : JSON.stringify(m), state));
}

const usage = (input: number, cached = 0, output = 10) => ({ totalTokens: input + output, inputTokens: input, cachedInputTokens: cached, cacheWriteInputTokens: 0, outputTokens: output, reasoningOutputTokens: 0 });
const tokenUsage = (last: ReturnType<typeof usage>, totalInput: number) => ({ method: 'thread/tokenUsage/updated', params: { threadId: 't', turnId: 'u', tokenUsage: { last, total: usage(totalInput), modelContextWindow: 258_400 } } });
const started = { method: 'turn/started', params: { threadId: 't', turn: { id: 'u' } } };

describe('parseAppServerLine', () => {
  it('without raw events, takes each call from thread/tokenUsage/updated once (an unchanged total is a repeat)', () => {
    const state = newCodexParseState();
    const events = feed(state, { id: 2, result: { thread: { id: 't' }, model: 'gpt-5.5', cwd: '/w' } }, started, tokenUsage(usage(1_000, 800), 1_000), tokenUsage(usage(1_000, 800), 1_000), tokenUsage(usage(1_500), 2_500));
    expect(events.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', messageId: 'u:1010', model: 'gpt-5.5', inputTokens: 200, cacheReadTokens: 800, cacheCreationTokens: 0, contextTokens: 1_000 },
      { type: 'usage', messageId: 'u:2510', model: 'gpt-5.5', inputTokens: 1_500, cacheReadTokens: 0, cacheCreationTokens: 0, contextTokens: 1_500 },
    ]);
  });

  it('with raw events, thread/tokenUsage/updated only gives the window', () => {
    const state = newCodexParseState();
    const events = feed(
      state,
      started,
      { method: 'rawResponse/completed', params: { threadId: 't', turnId: 'u', responseId: 'r1', usage: usage(2_000, 1_500, 40) } },
      tokenUsage(usage(2_000, 1_500, 40), 2_000),
      { method: 'turn/completed', params: { threadId: 't', turn: { id: 'u', status: 'completed', error: null, durationMs: 1234 } } },
    );
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
    expect(events.find((e) => e.type === 'output_usage')).toEqual({ type: 'output_usage', outputTokens: 40 });
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', contextWindow: 258_400, inputTokens: 500, outputTokens: 40, numTurns: 1, durationMs: 1234 });
  });

  it('counts a line that is not JSON or a notification it does not know, and ignores the known noise', () => {
    const state = newCodexParseState();
    const events = feed(state, 'not json', { method: 'thread/somethingNew', params: {} }, { method: 'account/rateLimits/updated', params: {} }, { id: 3, error: { code: 1, message: 'no' } });
    expect(events).toEqual([
      { type: 'unparsed_line', lineNumber: 1, reason: 'not-json', preview: 'not json' },
      { type: 'unparsed_line', lineNumber: 2, reason: 'unknown-type', preview: '{"method":"thread/somethingNew","params":{}}' },
    ]);
    expect(state.unparsedLines).toBe(2);
  });

  it('redacts the preview of a line it cannot read', () => {
    const state = newCodexParseState({ redact: (text) => text.replace(/sk-\w+/g, '[key]') });
    expect(feed(state, 'oops sk-secret123')).toEqual([{ type: 'unparsed_line', lineNumber: 1, reason: 'not-json', preview: 'oops [key]' }]);
  });

  it('a tool seen only completed still gets its start; a failed command is an error', () => {
    const state = newCodexParseState();
    const item = { type: 'commandExecution', id: 'c1', command: "/bin/bash -lc 'false'", status: 'failed', exitCode: 1, aggregatedOutput: '' };
    expect(feed(state, { method: 'item/completed', params: { item } }).map((e) => [e.type, 'isError' in e ? e.isError : undefined])).toEqual([
      ['tool_start', undefined],
      ['tool_result', true],
    ]);
  });

  it('a retry notice becomes api_retry, a final error api_error', () => {
    const state = newCodexParseState();
    expect(
      feed(
        state,
        { method: 'error', params: { willRetry: true, error: { message: 'Reconnecting... 2/5', codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 502 } } } } },
        { method: 'error', params: { willRetry: false, error: { message: 'Quota exceeded. Check your plan and billing details.', codexErrorInfo: 'usageLimitExceeded' } } },
      ),
    ).toEqual([
      { type: 'api_retry', attempt: 2, maxRetries: 5, delayMs: 0, errorStatus: 502 },
      { type: 'api_error', errorType: 'billing_error', text: 'Quota exceeded. Check your plan and billing details.' },
    ]);
  });
});

describe("a response's tool call ids (rawResponseItem/completed)", () => {
  it.each<[string, Record<string, unknown> | undefined, string | undefined]>([
    ['function_call (exec_command)', { type: 'function_call', id: 'fc_1', name: 'exec_command', arguments: '{}', call_id: 'call_a' }, 'call_a'],
    ['custom_tool_call (apply_patch)', { type: 'custom_tool_call', id: 'ctc_1', name: 'apply_patch', input: '', call_id: 'call_b' }, 'call_b'],
    ['local_shell_call', { type: 'local_shell_call', id: 'lsc_1', call_id: 'call_c', action: {} }, 'call_c'],
    ["a tool's output is not a call", { type: 'function_call_output', call_id: 'call_a', output: '' }, undefined],
    ['a message', { type: 'message', role: 'assistant', content: [] }, undefined],
    ['reasoning', { type: 'reasoning', id: 'rs_1', summary: [] }, undefined],
    ['a call without call_id', { type: 'function_call', id: 'fc_1', name: 'x' }, undefined],
    ['an empty call_id', { type: 'function_call', call_id: '' }, undefined],
    ['a call_id that is not a string', { type: 'function_call', call_id: 7 }, undefined],
    ['no item', undefined, undefined],
  ])('%s', (_name, item, id) => {
    expect(toolCallIdOf(item)).toBe(id);
  });

  it("keeps each call's ids by its number; the response under way has those it has sent so far", () => {
    const state = newCodexParseState();
    const item = (value: Record<string, unknown>) => ({ method: 'rawResponseItem/completed', params: { threadId: 't', turnId: 'u', item: value } });
    const completed = (id: string) => ({ method: 'rawResponse/completed', params: { threadId: 't', turnId: 'u', responseId: id, usage: usage(1_000) } });
    const events = feed(
      state,
      started,
      item({ type: 'message', role: 'user', content: [] }),
      item({ type: 'function_call', call_id: 'call_a' }),
      item({ type: 'custom_tool_call', call_id: 'call_b' }),
    );
    expect(events.filter((e) => e.type === 'unparsed_line')).toEqual([]);
    expect(toolCallIdsOfCall(state, 1)).toEqual(['call_a', 'call_b']);
    feed(state, completed('r1'), item({ type: 'function_call_output', call_id: 'call_a' }), tokenUsage(usage(1_000), 1_000), item({ type: 'function_call', call_id: 'call_c' }));
    expect([1, 2, 3].map((call) => toolCallIdsOfCall(state, call))).toEqual([['call_a', 'call_b'], ['call_c'], []]);
    feed(state, completed('r2'), tokenUsage(usage(1_000), 2_000), item({ type: 'message', role: 'assistant', content: [] }), completed('r3'));
    expect([0, 1, 2, 3, 4].map((call) => toolCallIdsOfCall(state, call))).toEqual([[], ['call_a', 'call_b'], ['call_c'], [], []]);
  });
});

describe("the session's raw log", () => {
  const raw = (item: Record<string, unknown>) => classifyMessage({ method: 'rawResponseItem/completed', params: { threadId: 't', turnId: 'u', item } });
  it.each<[string, ReturnType<typeof classifyMessage>, boolean]>([
    ['a tool call (its id is what the stop guard reads)', raw({ type: 'function_call', call_id: 'call_a', arguments: '{}' }), true],
    ["a tool's output (item/completed has it already)", raw({ type: 'function_call_output', call_id: 'call_a', output: 'x'.repeat(100) }), false],
    ["a message or codex's instructions", raw({ type: 'message', role: 'developer', content: [] }), false],
    ['reasoning', raw({ type: 'reasoning', summary: [] }), false],
    ['any other notification', classifyMessage({ method: 'item/completed', params: { item: { type: 'commandExecution' } } }), true],
    ['a response', classifyMessage({ id: 1, result: {} }), true],
    ['a line that is not JSON-RPC', undefined, true],
  ])('%s: kept %s', (_name, message, kept) => {
    expect(keepInRawLog(message)).toBe(kept);
  });
});

describe('codex tools in debussy names', () => {
  it.each([
    ["/bin/bash -lc 'npm test'", 'npm test'],
    ["/bin/bash -c 'echo it'\\''s'", "echo it's"],
    ["/bin/zsh -lc 'ls -la'", 'ls -la'],
    ['npm test', 'npm test'],
  ])('modelCommand(%s) = %s', (command, expected) => {
    expect(modelCommand({ command })).toBe(expected);
  });

  it('takes the model command from commandActions when the shell form is unknown', () => {
    expect(modelCommand({ command: 'pwsh -c x', commandActions: [{ type: 'unknown', command: 'x' }] })).toBe('x');
  });

  it('maps MCP and file changes; other items are not tools', () => {
    expect(codexTool({ type: 'mcpToolCall', server: 'docs', tool: 'search', arguments: { q: 'x' }, status: 'completed', result: { content: [{ type: 'text', text: 'found' }] } })).toEqual({
      name: 'mcp__docs__search',
      input: { q: 'x' },
      output: 'found',
      isError: false,
    });
    expect(codexTool({ type: 'fileChange', changes: [{ path: '/w/a.ts' }, { path: '/w/b.ts' }], status: 'declined' })).toEqual({
      name: 'apply_patch',
      input: { file_path: '/w/a.ts', files: ['/w/a.ts', '/w/b.ts'] },
      output: 'declined: /w/a.ts, /w/b.ts',
      isError: true,
    });
    expect(codexTool({ type: 'reasoning' })).toBeUndefined();
  });
});

describe('rollout readers', () => {
  it('patchFiles lists the files of a patch', () => {
    expect(patchFiles('*** Begin Patch\n*** Add File: a.md\n+x\n*** Update File: src/b.ts\n@@\n*** Delete File: c\n*** End Patch\n')).toEqual(['a.md', 'src/b.ts', 'c']);
  });

  it.each([
    ['Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nok\n', false],
    ['Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\n', true],
    ['Exit code: 1\nWall time: 0 seconds\nOutput:\nfailed\n', true],
    ['Command blocked by PreToolUse hook: stop. Command: ls', true],
    ['Wall time: 0.3 seconds\naborted by user', true],
    ['Chunk ID: 1\nProcess running with session ID 42\n', false],
  ])('outputFailed(%j) = %s', (output, failed) => {
    expect(outputFailed(output)).toBe(failed);
  });
});
