import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/redact/index.js';
import { spreadOver, StreamedBlocks } from '../../../src/agent/claude/streamed-blocks.js';

const TOKEN = 'ghp_R8vN1bT6yH3jF5dS0aC2eG8uQ7wX2mZ9pL4k';
const redact = createRedactor({});

function delta(index: number, field: 'text' | 'partial_json' | 'thinking', piece: string, parent: string | null = null): string {
  const type = field === 'text' ? 'text_delta' : field === 'partial_json' ? 'input_json_delta' : 'thinking_delta';
  return JSON.stringify({ type: 'stream_event', event: { type: 'content_block_delta', index, delta: { type, [field]: piece } }, parent_tool_use_id: parent, session_id: 's' });
}
const stop = (index: number) => JSON.stringify({ type: 'stream_event', event: { type: 'content_block_stop', index }, parent_tool_use_id: null });
const start = (index: number) => JSON.stringify({ type: 'stream_event', event: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, parent_tool_use_id: null });
const assistant = (text: string) => JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text }] }, parent_tool_use_id: null });

function cut(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** The written lines' pieces of one field, joined. */
function joined(lines: (string | Buffer)[], field: string): string {
  return lines
    .map((line) => JSON.parse(line.toString()) as { event?: { type?: string; delta?: Record<string, string> } })
    .filter((record) => record.event?.type === 'content_block_delta')
    .map((record) => record.event?.delta?.[field] ?? '')
    .join('');
}

describe('spreadOver', () => {
  it.each([
    { lengths: [3, 3, 3], text: 'abcdefghi', pieces: ['abc', 'def', 'ghi'] },
    { lengths: [3, 3, 3], text: 'abcd', pieces: ['abc', 'd', ''] },
    { lengths: [2, 2], text: 'abcdefgh', pieces: ['ab', 'cdefgh'] },
    { lengths: [5], text: '', pieces: [''] },
  ])('$text over $lengths', ({ lengths, text, pieces }) => {
    expect(spreadOver(lengths, text)).toEqual(pieces);
  });
});

describe('StreamedBlocks', () => {
  it.each(['text', 'partial_json', 'thinking'] as const)('a secret cut across %s pieces is not found in the joined pieces', (field) => {
    const text = field === 'partial_json' ? JSON.stringify({ command: `echo ${TOKEN}` }) : `the token is ${TOKEN}, keep it`;
    const blocks = new StreamedBlocks(redact);
    const written = [...blocks.accept(start(0))];
    for (const piece of cut(text, 7)) written.push(...blocks.accept(delta(0, field, piece)));
    expect(written).toHaveLength(1);
    written.push(...blocks.accept(assistant(text)), ...blocks.accept(stop(0)));
    const pieces = joined(written, field);
    expect(pieces).toBe(redact(text));
    expect(pieces).not.toContain('ghp_R8vN1');
    expect(written.map(String).join('\n')).not.toContain('ghp_R8vN1');
  });

  it('keeps the order of the stream: lines behind a held block wait for it', () => {
    const blocks = new StreamedBlocks(redact);
    const order: string[] = [];
    const take = (lines: (string | Buffer)[]) => order.push(...lines.map((line) => (JSON.parse(line.toString()) as { type: string; event?: { type: string } }).event?.type ?? (JSON.parse(line.toString()) as { type: string }).type));
    take(blocks.accept(delta(0, 'text', 'hello ')));
    take(blocks.accept(JSON.stringify({ type: 'system', subtype: 'status', parent_tool_use_id: 'other' })));
    take(blocks.accept(delta(0, 'text', 'world')));
    expect(order).toEqual([]);
    take(blocks.accept(assistant('hello world')));
    expect(order).toEqual(['content_block_delta', 'system', 'content_block_delta', 'assistant']);
  });

  it('writes unchanged lines as the bytes they came as', () => {
    const blocks = new StreamedBlocks(redact);
    const line = delta(0, 'text', 'plain words');
    const bytes = Buffer.from(line);
    expect(blocks.accept(line, bytes)).toEqual([]);
    const written = blocks.accept(stop(0));
    expect(written[0]).toBe(bytes);
  });

  it('a session that ends mid-block has the held pieces redacted as they stand', () => {
    const blocks = new StreamedBlocks(redact);
    for (const piece of cut(`key ${TOKEN} and more`, 5)) expect(blocks.accept(delta(1, 'text', piece))).toEqual([]);
    const written = blocks.drain();
    expect(joined(written, 'text')).toBe('key [REDACTED] and more');
    expect(blocks.drain()).toEqual([]);
  });

  it('a block of another agent is not completed by this one\'s lines', () => {
    const blocks = new StreamedBlocks(redact);
    const pieces = cut(`sub ${TOKEN}`, 6);
    expect(blocks.accept(delta(0, 'text', pieces[0] ?? '', 'toolu_1'))).toEqual([]);
    expect(blocks.accept(JSON.stringify({ type: 'system', subtype: 'status', parent_tool_use_id: null }))).toEqual([]);
    const written: (string | Buffer)[] = [];
    for (const piece of pieces.slice(1)) written.push(...blocks.accept(delta(0, 'text', piece, 'toolu_1')));
    written.push(...blocks.accept(JSON.stringify({ type: 'assistant', parent_tool_use_id: 'toolu_1', message: { content: [] } })));
    expect(joined(written, 'text')).toBe('sub [REDACTED]');
  });

  it('a line that is not a delta passes at once, redacted alone', () => {
    const blocks = new StreamedBlocks(redact);
    expect(blocks.accept(`{"type":"user","text":"${TOKEN}"}`)).toEqual(['{"type":"user","text":"[REDACTED]"}']);
    expect(blocks.accept('not json')).toEqual(['not json']);
  });
});
