import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLineBatches } from '../../src/agent/index.js';

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
