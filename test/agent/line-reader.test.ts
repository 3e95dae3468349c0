import { constants } from 'node:buffer';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLineBatches } from '../../src/agent/index.js';
import { readLineBytesBatches } from '../../src/agent/line-reader.js';

async function linesOf(chunks: Array<Buffer | string>): Promise<string[]> {
  const all: string[] = [];
  for await (const batch of readLineBatches(Readable.from(chunks))) all.push(...batch);
  return all;
}

describe('readLineBatches', () => {
  it.each<[string, Array<Buffer | string>, string[]]>([
    ['whole lines', ['a\nb\n'], ['a', 'b']],
    ['a line split across chunks', ['{"ty', 'pe":', '"x"}\nnext\n'], ['{"type":"x"}', 'next']],
    ['no newline at the end', ['a\nlast'], ['a', 'last']],
    ['CRLF endings', ['a\r\nb\r\n'], ['a', 'b']],
    ['empty lines kept', ['\n\nx\n'], ['', '', 'x']],
    ['nothing', [], []],
  ])('%s', async (_name, chunks, expected) => {
    expect(await linesOf(chunks)).toEqual(expected);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const bytes = Buffer.from('héllo 😀\n', 'utf8');
    const chunks = [bytes.subarray(0, 2), bytes.subarray(2, 8), bytes.subarray(8)];
    expect(await linesOf(chunks)).toEqual(['héllo 😀']);
  });

  it('reassembles a 5 MB line from 64 KB chunks', async () => {
    const line = 'q'.repeat(5 * 1024 * 1024);
    const data = Buffer.from(`${line}\nend\n`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < data.length; i += 65_536) chunks.push(data.subarray(i, i + 65_536));
    const lines = await linesOf(chunks);
    expect(lines.map((l) => l.length)).toEqual([line.length, 3]);
  });
});

describe('readLineBytesBatches: each line with the bytes it was decoded from', () => {
  it.each<[string, Array<Buffer | string>, [string, string | undefined][]]>([
    ['whole lines', ['a\nbc\n'], [['a', 'a'], ['bc', 'bc']]],
    ['a line split across chunks', ['{"ty', 'pe":', '"x"}\nnext\n'], [['{"type":"x"}', '{"type":"x"}'], ['next', 'next']]],
    ['no newline at the end', ['a\nlast'], [['a', 'a'], ['last', 'last']]],
    // With its CR taken off, a line is no longer its bytes.
    ['CRLF endings', ['a\r\nb\n'], [['a', undefined], ['b', 'b']]],
    ['multi-byte characters', [Buffer.from('héllo 😀\n').subarray(0, 3), Buffer.from('héllo 😀\n').subarray(3)], [['héllo 😀', 'héllo 😀']]],
  ])('%s', async (_name, chunks, expected) => {
    const got: [string, string | undefined][] = [];
    for await (const batch of readLineBytesBatches(Readable.from(chunks))) {
      batch.lines.forEach((text, i) => got.push([text, batch.bytes[i]?.toString('utf8')]));
    }
    expect(got).toEqual(expected);
  });
});

describe('readLineBatches: a line longer than the limit', () => {
  async function withLimit(chunks: Array<Buffer | string>, maxLineBytes: number): Promise<{ lines: string[]; skipped: number[] }> {
    const lines: string[] = [];
    const skipped: number[] = [];
    for await (const batch of readLineBatches(Readable.from(chunks), { maxLineBytes, onSkipped: (bytes) => skipped.push(bytes) })) lines.push(...batch);
    return { lines, skipped };
  }

  it.each<[string, Array<Buffer | string>, string[], number[]]>([
    ['within one chunk', ['ok\n0123456789\nnext\n'], ['ok', 'next'], [10]],
    ['spread over chunks', ['ok\n0123', '456', '789', '0\nnext\n'], ['ok', 'next'], [11]],
    ['at the limit is kept', ['12345678\n'], ['12345678'], []],
    ['at the end without a newline', ['ok\n0123456789abc'], ['ok'], [13]],
    ['two in a row', ['aaaaaaaaaaaa\nbbbbbbbbbbbbb\nc\n'], ['c'], [12, 13]],
  ])('%s', async (_name, chunks, lines, skipped) => {
    expect(await withLimit(chunks, 8)).toEqual({ lines, skipped });
  });
});

describe('readLineBatches: a line longer than V8 can hold as a string', () => {
  it('is skipped at the real limit, never decoded (no ERR_STRING_TOO_LONG)', async () => {
    const mb = Buffer.alloc(1024 * 1024, 0x61);
    const count = Math.ceil(constants.MAX_STRING_LENGTH / mb.length) + 1;
    function* flood(): Generator<Buffer> {
      yield Buffer.from('before\n');
      // The same megabyte over and over: the test itself holds 1 MB.
      for (let i = 0; i < count; i++) yield mb;
      yield Buffer.from('\nafter\n');
    }
    const lines: string[] = [];
    const skipped: number[] = [];
    for await (const batch of readLineBatches(Readable.from(flood()), { onSkipped: (bytes) => skipped.push(bytes) })) lines.push(...batch);
    expect(lines).toEqual(['before', 'after']);
    expect(skipped).toEqual([count * mb.length]);
  });
});
