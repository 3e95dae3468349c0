import { describe, expect, it } from 'vitest';
import { endTranscript, newTranscriptState, readTranscriptLine, type TranscriptItem } from '../../src/replay/index.js';

/** Lines in the shape Claude Code 2.x writes, made up for this test. */
const usage = (input: number, read: number, output: number) => ({ input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: 0, output_tokens: output });
const assistant = (id: string, block: unknown, u: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'assistant', isSidechain: false, message: { id, model: 'claude-opus-4-6', role: 'assistant', content: [block], usage: u }, ...extra });
const user = (content: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'user', isSidechain: false, message: { role: 'user', content }, ...extra });

const LINES = [
  JSON.stringify({ type: 'file-history-snapshot', messageId: 'x' }),
  user('fix the build'),
  // One response streamed as three chunks: usage repeated, the last chunk with the final output count.
  assistant('msg_1', { type: 'thinking', thinking: '' }, usage(3, 20_000, 8)),
  assistant('msg_1', { type: 'text', text: 'Reading the log.' }, usage(3, 20_000, 8)),
  assistant('msg_1', { type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'cat build.log' } }, usage(3, 20_000, 412)),
  JSON.stringify({ type: 'progress', data: { type: 'hook_progress' } }),
  user([{ type: 'tool_result', tool_use_id: 'tu_1', content: 'error TS2304' }]),
  // A subagent's conversation in the same file: not the main context.
  assistant('msg_side', { type: 'text', text: 'subagent' }, usage(5, 1_000, 10), { isSidechain: true }),
  user([{ type: 'text', text: '<system-reminder>files changed</system-reminder>' }]),
  JSON.stringify({ type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'auto', preTokens: 167_094 } }),
  assistant('msg_2', { type: 'text', text: 'Done.' }, usage(10, 30_000, 5)),
  assistant('msg_err', { type: 'text', text: 'API Error' }, usage(0, 0, 0), { isApiErrorMessage: true }),
  'not json',
];

function read(lines: string[]): { items: TranscriptItem[]; state: ReturnType<typeof newTranscriptState> } {
  const state = newTranscriptState();
  const items = lines.flatMap((line) => readTranscriptLine(line, state));
  items.push(...endTranscript(state));
  return { items, state };
}

describe('transcript events', () => {
  it('turns a transcript into the monitor events: one usage per message id, the final output count, sidechains apart', () => {
    const { items, state } = read(LINES);
    const shape = items.map((item) => (item.kind === 'user_text' ? `user: ${item.text}` : item.event.type === 'usage' ? `usage ${item.event.messageId} ${item.event.contextTokens}` : item.event.type === 'output_usage' ? `output ${item.event.outputTokens}` : item.event.type));
    expect(shape).toEqual([
      'user: fix the build',
      'usage msg_1 20003',
      'assistant_text',
      'tool_start',
      'output 412',
      'tool_result',
      'user: <system-reminder>files changed</system-reminder>',
      'compaction',
      'usage msg_2 30010',
      'assistant_text',
      'output 5',
    ]);
    expect(state.otherChainEntries).toBe(1);
    expect(state.badLines).toBe(1);
  });

  it.each([
    ['the final count of a response that wrote 2 KB', 300, true],
    ['exactly 8 bytes of content per token', 256, true],
    ['the count the response started with, repeated on its blocks', 4, false],
    ['just under 8 bytes per token', 255, false],
  ])('output_tokens: %s (%s tokens) is %s', (_what, outputTokens, kept) => {
    // 2,048 bytes of content: 1,024 of thinking, 1,024 of the tool's name and input.
    const thinking = 't'.repeat(1_024);
    const input = { content: 'c'.repeat(1_005) };
    expect(Buffer.byteLength('Write' + JSON.stringify(input))).toBe(1_024);
    const { items } = read([
      assistant('m', { type: 'thinking', thinking }, usage(1, 0, Number(outputTokens))),
      assistant('m', { type: 'tool_use', id: 'tu_w', name: 'Write', input }, usage(1, 0, Number(outputTokens))),
    ]);
    const output = items.filter((i) => i.kind === 'event' && i.event.type === 'output_usage');
    expect(output).toEqual(kept ? [{ kind: 'event', event: { type: 'output_usage', outputTokens } }] : []);
    // The thinking is the model's text to count while no exact output is known.
    expect(items).toContainEqual({ kind: 'event', event: { type: 'assistant_text', messageId: 'm', text: thinking } });
  });

  it('a tool_use repeated in a later chunk is one tool call', () => {
    const block = { type: 'tool_use', id: 'tu_9', name: 'Read', input: { file_path: '/a' } };
    const { items } = read([assistant('m', block, usage(1, 0, 3)), assistant('m', block, usage(1, 0, 30))]);
    expect(items.filter((i) => i.kind === 'event' && i.event.type === 'tool_start')).toHaveLength(1);
    expect(items.at(-1)).toEqual({ kind: 'event', event: { type: 'output_usage', outputTokens: 30 } });
  });
});

describe('a subagent transcript', () => {
  it('read as the sidechain: its own calls, the main chain left apart', () => {
    const sidechain = (line: string) => line.replace('"isSidechain":false', '"isSidechain":true');
    const lines = [sidechain(user('find the config')), sidechain(assistant('s1', { type: 'text', text: 'Looking.' }, usage(3, 5_000, 9))), assistant('m1', { type: 'text', text: 'main' }, usage(1, 9_000, 2))];
    const state = newTranscriptState('sidechain');
    const items = lines.flatMap((line) => readTranscriptLine(line, state));
    expect(items.filter((i) => i.kind === 'event' && i.event.type === 'usage')).toMatchObject([{ event: { messageId: 's1', contextTokens: 5_003 } }]);
    expect(state.otherChainEntries).toBe(1);
  });
});
