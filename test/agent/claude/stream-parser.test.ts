import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newStreamParseState, parseStreamLine, type AgentEvent, type StreamParseState } from '../../../src/agent/index.js';
import { RecentIds } from '../../../src/agent/claude/stream-parser.js';
import { createRedactor } from '../../../src/redact/index.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'streams', '2.1.197');
const SESSION = 'sess-1';

function parseAll(lines: unknown[], state: StreamParseState = newStreamParseState()): AgentEvent[] {
  return lines.flatMap((line) => parseStreamLine(typeof line === 'string' ? line : JSON.stringify(line), state));
}

const usage = (input: number, read = 0, write = 0) => ({
  input_tokens: input,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
  output_tokens: 3,
});
const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}, model = 'claude-sonnet-4-5') => ({
  type: 'assistant',
  message: { id, type: 'message', role: 'assistant', model, content, stop_reason: null, usage: usage(1000, 200, 30) },
  parent_tool_use_id: null,
  session_id: SESSION,
  ...extra,
});
const init = {
  type: 'system',
  subtype: 'init',
  cwd: '/work/project',
  session_id: SESSION,
  tools: ['Bash', 'Edit', 'Read', 42],
  model: 'claude-opus-4-8[1m]',
  claude_code_version: '2.1.197',
};

describe('parseStreamLine', () => {
  const cases: Array<{ name: string; lines: unknown[]; expected: AgentEvent[] }> = [
    {
      name: 'system/init',
      lines: [init],
      expected: [{ type: 'init', sessionId: SESSION, model: 'claude-opus-4-8[1m]', cwd: '/work/project', version: '2.1.197', tools: ['Bash', 'Edit', 'Read'] }],
    },
    {
      name: 'status requesting starts a request; compacting starts a compaction; other statuses say nothing',
      lines: [
        { type: 'system', subtype: 'status', status: 'requesting' },
        { type: 'system', subtype: 'status', status: 'compacting' },
        { type: 'system', subtype: 'status', status: null, compact_result: 'success' },
      ],
      expected: [{ type: 'request_started' }, { type: 'compaction', stage: 'started' }],
    },
    {
      name: 'usage is reported once per message id although each block repeats it',
      lines: [
        assistant('msg_1', [{ type: 'text', text: 'Let me look.' }]),
        assistant('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test', description: 'run tests' } }]),
      ],
      expected: [
        { type: 'usage', messageId: 'msg_1', model: 'claude-sonnet-4-5', inputTokens: 1000, cacheReadTokens: 200, cacheCreationTokens: 30, contextTokens: 1230 },
        { type: 'assistant_text', messageId: 'msg_1', text: 'Let me look.' },
        { type: 'tool_start', messageId: 'msg_1', toolUseId: 'toolu_1', name: 'Bash', input: { command: 'npm test', description: 'run tests' }, summary: 'Bash: npm test' },
      ],
    },
    {
      name: 'the partial-message message_start gives the usage first; the assistant event does not repeat it',
      lines: [
        { type: 'stream_event', event: { type: 'message_start', message: { id: 'msg_7', model: 'claude-opus-4-8', usage: usage(50, 5, 1) } }, parent_tool_use_id: null },
        { type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }, parent_tool_use_id: null },
        assistant('msg_7', [{ type: 'text', text: 'Hi' }], {}, 'claude-opus-4-8'),
        { type: 'stream_event', event: { type: 'message_stop' }, parent_tool_use_id: null },
      ],
      expected: [
        { type: 'usage', messageId: 'msg_7', model: 'claude-opus-4-8', inputTokens: 50, cacheReadTokens: 5, cacheCreationTokens: 1, contextTokens: 56 },
        { type: 'assistant_text', messageId: 'msg_7', text: 'Hi' },
      ],
    },
    {
      name: 'tool results: string content, text blocks of a subagent, errors',
      lines: [
        { type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'ok\n', is_error: false }] } },
        {
          type: 'user',
          message: { role: 'user', content: [{ tool_use_id: 'toolu_2', type: 'tool_result', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] },
        },
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'Exit code 1', is_error: true }] }, tool_use_result: 'Error: Exit code 1' },
        { type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] } },
      ],
      expected: [
        { type: 'tool_result', toolUseId: 'toolu_1', isError: false, text: 'ok\n' },
        { type: 'tool_result', toolUseId: 'toolu_2', isError: false, text: 'a\nb' },
        { type: 'tool_result', toolUseId: 'toolu_3', isError: true, text: 'Exit code 1' },
      ],
    },
    {
      name: 'the synthetic message of an API failure is an api_error, without usage',
      lines: [
        assistant('3ad86e54', [{ type: 'text', text: 'API Error: Request rejected (429) · slow down' }], { error: 'rate_limit' }, '<synthetic>'),
      ],
      expected: [{ type: 'api_error', errorType: 'rate_limit', text: 'API Error: Request rejected (429) · slow down' }],
    },
    {
      name: 'api_retry and model_fallback',
      lines: [
        { type: 'system', subtype: 'api_retry', attempt: 2, max_retries: 10, retry_delay_ms: 1034.5, error_status: 529, error: 'overloaded' },
        { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 3, retry_delay_ms: 500, error_status: null },
        { type: 'system', subtype: 'model_fallback', original_model: 'claude-opus-4-8', fallback_model: 'claude-sonnet-4-5', trigger: 'overloaded' },
      ],
      expected: [
        { type: 'api_retry', attempt: 2, maxRetries: 10, delayMs: 1034.5, errorStatus: 529 },
        { type: 'api_retry', attempt: 1, maxRetries: 3, delayMs: 500, errorStatus: null },
        { type: 'model_fallback', from: 'claude-opus-4-8', to: 'claude-sonnet-4-5' },
      ],
    },
    {
      name: 'compact_boundary carries the token figures',
      lines: [{ type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: 'auto', pre_tokens: 16857, post_tokens: 581 } }],
      expected: [{ type: 'compaction', stage: 'boundary', preTokens: 16857, postTokens: 581 }],
    },
    {
      name: 'hook, task and notification events are known and quiet',
      lines: [
        { type: 'system', subtype: 'task_started', task_id: 'b1', tool_use_id: 'toolu_1' },
        { type: 'system', subtype: 'hook_response', hook_name: 'PreToolUse' },
        { type: 'system', subtype: 'notification', text: 'hi' },
      ],
      expected: [],
    },
    {
      name: 'a line of an unknown type is reported, not dropped',
      lines: [{ type: 'rate_limit_event', info: {} }],
      expected: [{ type: 'unparsed_line', lineNumber: 1, reason: 'unknown-type', preview: '{"type":"rate_limit_event","info":{}}' }],
    },
    {
      name: 'a line that is not JSON is reported with a preview',
      lines: ['Error: something went wrong {'],
      expected: [{ type: 'unparsed_line', lineNumber: 1, reason: 'not-json', preview: 'Error: something went wrong {' }],
    },
    {
      name: 'JSON that is not an object is an unknown type; blank lines say nothing',
      lines: ['', '   ', '[1,2]', '"text"'],
      expected: [
        { type: 'unparsed_line', lineNumber: 3, reason: 'unknown-type', preview: '[1,2]' },
        { type: 'unparsed_line', lineNumber: 4, reason: 'unknown-type', preview: '"text"' },
      ],
    },
    {
      name: 'subagent messages carry their parent and no usage',
      lines: [
        assistant('msg_sub', [{ type: 'tool_use', id: 'toolu_s1', name: 'Read', input: { file_path: '/work/project/src/a.ts' } }], { parent_tool_use_id: 'toolu_task' }),
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s1', content: 'x' }] }, parent_tool_use_id: 'toolu_task' },
      ],
      expected: [
        {
          type: 'tool_start',
          messageId: 'msg_sub',
          toolUseId: 'toolu_s1',
          name: 'Read',
          input: { file_path: '/work/project/src/a.ts' },
          summary: 'Read: /work/project/src/a.ts',
          parentToolUseId: 'toolu_task',
        },
        { type: 'tool_result', toolUseId: 'toolu_s1', isError: false, text: 'x', parentToolUseId: 'toolu_task' },
      ],
    },
  ];

  it.each(cases)('$name', ({ lines, expected }) => {
    expect(parseAll(lines)).toEqual(expected);
  });

  it('reads every field of a result, and the window of the session model from modelUsage', () => {
    const state = newStreamParseState();
    parseAll([init], state);
    const [event] = parseAll(
      [
        {
          type: 'result',
          subtype: 'error_during_execution',
          is_error: true,
          api_error_status: 529,
          duration_ms: 3881,
          num_turns: 3,
          result: 'API Error: overloaded',
          session_id: SESSION,
          total_cost_usd: 0.25,
          usage: { input_tokens: 1200, cache_read_input_tokens: 99, output_tokens: 40 },
          modelUsage: { 'claude-haiku-4-5': { contextWindow: 200000 }, 'claude-opus-4-8[1m]': { contextWindow: 1000000 } },
          terminal_reason: 'aborted_tools',
        },
      ],
      state,
    );
    expect(event).toEqual({
      type: 'result',
      subtype: 'error_during_execution',
      isError: true,
      terminalReason: 'aborted_tools',
      apiErrorStatus: 529,
      text: 'API Error: overloaded',
      sessionId: SESSION,
      costUsd: 0.25,
      inputTokens: 1200,
      outputTokens: 40,
      contextWindow: 1000000,
      numTurns: 3,
      durationMs: 3881,
    });
  });

  it('keeps a result with missing fields as a result with defaults', () => {
    expect(parseAll([{ type: 'result', api_error_status: null }])).toEqual([
      { type: 'result', subtype: '', isError: false, apiErrorStatus: null, costUsd: 0, inputTokens: 0, outputTokens: 0 },
    ]);
  });

  it('tracks tools still running and whether a response is streaming', () => {
    const state = newStreamParseState();
    parseAll([{ type: 'stream_event', event: { type: 'message_start', message: { id: 'm1', model: 'x', usage: usage(1) } } }], state);
    expect(state.responseOpen).toBe(true);
    parseAll([assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'sleep 1' } }])], state);
    parseAll([assistant('m1', [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'true' } }])], state);
    expect([...state.pendingToolUseIds]).toEqual(['t1', 't2']);
    parseAll([{ type: 'stream_event', event: { type: 'message_stop' } }], state);
    expect(state.responseOpen).toBe(false);
    parseAll([{ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't2', content: '' }] } }], state);
    expect([...state.pendingToolUseIds]).toEqual(['t1']);
    // A streamed response cut off without message_stop does not stay "open" past the next request.
    parseAll([{ type: 'stream_event', event: { type: 'message_start', message: { id: 'm2', model: 'x', usage: usage(1) } } }], state);
    parseAll([{ type: 'system', subtype: 'status', status: 'requesting' }], state);
    expect(state.responseOpen).toBe(false);
  });

  it("counts the main agent's tokens from the stream: input once per response, output from each final message_delta", () => {
    const state = newStreamParseState();
    parseAll([
      { type: 'stream_event', event: { type: 'message_start', message: { id: 'm1', model: 'x', usage: usage(40, 1000, 10) } } },
      assistant('m1', [{ type: 'text', text: 'hi' }]),
      assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'true' } }]),
      { type: 'stream_event', event: { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 25 } } },
      { type: 'stream_event', event: { type: 'message_stop' } },
      { type: 'stream_event', event: { type: 'message_start', message: { id: 'm2', model: 'x', usage: usage(7) } } },
      { type: 'stream_event', event: { type: 'message_delta', delta: {}, usage: { output_tokens: 12 } } },
      // A subagent's response is not the main agent's.
      { type: 'stream_event', event: { type: 'message_start', message: { id: 's1', model: 'x', usage: usage(500) } }, parent_tool_use_id: 't1' },
      { type: 'stream_event', event: { type: 'message_delta', delta: {}, usage: { output_tokens: 99 } }, parent_tool_use_id: 't1' },
    ], state);
    expect(state.streamTokens).toEqual({ input: 47, output: 37 });
  });

  it('does not report a tool start twice when a block is repeated', () => {
    const block = { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/work/project/a.md', content: 'x' } };
    const events = parseAll([init, assistant('m1', [block]), assistant('m1', [block])]);
    expect(events.filter((e) => e.type === 'tool_start')).toEqual([
      { type: 'tool_start', messageId: 'm1', toolUseId: 't1', name: 'Write', input: block.input, summary: 'Write: a.md' },
    ]);
  });

  it('parses a line of more than 1 MB', () => {
    const text = 'x'.repeat(1_500_000);
    const line = JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: text }] } });
    expect(line.length).toBeGreaterThan(1_000_000);
    const [event] = parseAll([line]);
    expect(event?.type === 'tool_result' && event.text.length).toBe(1_500_000);
  });

  it('keeps a preview of a long unparsable line, not the line', () => {
    const [event] = parseAll(['{' + 'y'.repeat(2_000_000)]);
    expect(event).toMatchObject({ type: 'unparsed_line', reason: 'not-json' });
    expect(event?.type === 'unparsed_line' && event.preview.length).toBe(200);
  });

  it('counts unparsed lines and line numbers in its state', () => {
    const state = newStreamParseState();
    parseAll(['nope', { type: 'mystery' }, init, 'again'], state);
    expect(state.lineNumber).toBe(4);
    expect(state.unparsedLines).toBe(3);
  });
});

describe('parseStreamLine over streams recorded from the real CLI', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.ndjson'));

  it.each(files)('%s: every line understood, init first, one result', (file) => {
    const lines = readFileSync(path.join(FIXTURES, file), 'utf8').split('\n');
    const events = parseAll(lines);
    expect(events.filter((e) => e.type === 'unparsed_line')).toEqual([]);
    expect(events[0]?.type).toBe('init');
    expect(events.filter((e) => e.type === 'result')).toHaveLength(1);
    const ids = events.flatMap((e) => (e.type === 'usage' ? [e.messageId] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a tool-use session: the events in order, each tool answered', () => {
    const events = parseAll(readFileSync(path.join(FIXTURES, 'multi-tool-session.ndjson'), 'utf8').split('\n'));
    const starts = events.flatMap((e) => (e.type === 'tool_start' ? [e.toolUseId] : []));
    const results = events.flatMap((e) => (e.type === 'tool_result' ? [e.toolUseId] : []));
    expect(starts.length).toBeGreaterThan(1);
    expect(new Set(results)).toEqual(new Set(starts));
    const usageCount = events.filter((e) => e.type === 'usage').length;
    const requests = events.filter((e) => e.type === 'request_started').length;
    expect(usageCount).toBe(requests);
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: false, terminalReason: 'completed', contextWindow: 1_000_000 });
  });

  it('an API failure: api_error then an error result with the status', () => {
    const events = parseAll(readFileSync(path.join(FIXTURES, 'api-error-429-retry.ndjson'), 'utf8').split('\n'));
    expect(events.map((e) => e.type)).toEqual(['init', 'request_started', 'api_retry', 'api_error', 'result']);
    expect(events.find((e) => e.type === 'api_error')).toMatchObject({ errorType: 'rate_limit' });
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', isError: true, apiErrorStatus: 429 });
  });

  it('context overflow: terminal reason prompt_too_long', () => {
    const events = parseAll(readFileSync(path.join(FIXTURES, 'prompt-too-long.ndjson'), 'utf8').split('\n'));
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: true, terminalReason: 'prompt_too_long', apiErrorStatus: 400 });
  });

  it('auto-compaction: started then boundary with figures', () => {
    const events = parseAll(readFileSync(path.join(FIXTURES, 'auto-compaction.ndjson'), 'utf8').split('\n'));
    const compaction = events.filter((e) => e.type === 'compaction');
    expect(compaction[0]).toEqual({ type: 'compaction', stage: 'started' });
    expect(compaction[1]).toMatchObject({ stage: 'boundary', preTokens: expect.any(Number) as number, postTokens: expect.any(Number) as number });
  });
});

describe('RecentIds', () => {
  it('forgets the oldest ids beyond its capacity', () => {
    const ids = new RecentIds(2);
    ids.add('a');
    ids.add('b');
    ids.add('c');
    expect([ids.has('a'), ids.has('b'), ids.has('c')]).toEqual([false, true, true]);
  });
});

describe('text cut for people is redacted whole first', () => {
  const TOKEN = 'ghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u';
  const redact = createRedactor({});

  it("an unparsed line's preview: the token on the cut does not leave its start", () => {
    // The preview keeps 197 characters and `...`: the token starts at 180.
    const line = `not json ${'x'.repeat(170)} ${TOKEN} and the rest`;
    const [event] = parseAll([line], newStreamParseState(redact));
    expect(event).toMatchObject({ type: 'unparsed_line', reason: 'not-json' });
    expect(JSON.stringify(event)).not.toContain(TOKEN.slice(0, 6));
    const [unredacted] = parseAll([line]);
    expect(JSON.stringify(unredacted)).toContain(TOKEN.slice(0, 10));
  });

  it("a tool call's summary", () => {
    const command = `echo ${'a'.repeat(100)} ${TOKEN}`;
    const events = parseAll([{ type: 'assistant', message: { id: 'msg_1', model: 'm', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command } }], usage: usage(10) }, parent_tool_use_id: null, session_id: SESSION }], newStreamParseState(redact));
    const start = events.find((e) => e.type === 'tool_start');
    expect(start).toMatchObject({ type: 'tool_start', name: 'Bash', input: { command } });
    expect(start?.type === 'tool_start' && start.summary).not.toContain(TOKEN.slice(0, 6));
  });
});
