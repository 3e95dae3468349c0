import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, estimateTokens } from '../../src/context/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const reference = new Tiktoken(cl100kBase);
const exact = (text: string) => reference.encode(text, [], []).length;

describe('countTokens', () => {
  const samples: Array<[string, string]> = [
    ['empty', ''],
    ['a word', 'hello'],
    ['prose', 'The quick brown fox jumps over the lazy dog. It was not amused!\n\nNew paragraph.'],
    ['code', readFileSync(path.join(HERE, '..', '..', 'src', 'context', 'token-count.ts'), 'utf8')],
    ['a recorded stream', readFileSync(path.join(HERE, '..', 'fixtures', 'streams', 'multi-tool-session.ndjson'), 'utf8')],
    ['unicode', 'héllo wörld — 日本語のテキスト 😀🎉 ñ'.repeat(20)],
    ['whitespace runs', 'a    b\t\t\tc\n\n\n\n   \r\n d      '],
    ['special-token markers as text', 'before <|endoftext|> after <|fim_prefix|>'],
    ['digits', '1234567890 3.14159 0xdeadbeef'],
    ['a long letter run', 'a'.repeat(200)],
  ];

  it.each(samples)('%s: same count as js-tiktoken encode()', (_name, text) => {
    expect(countTokens(text)).toBe(exact(text));
  });

  it('counts a piece longer than its slice size within one token per slice', () => {
    const text = 'Q'.repeat(1_000);
    const got = countTokens(text);
    const slices = Math.ceil(text.length / 256);
    expect(Math.abs(got - exact(text))).toBeLessThanOrEqual(slices);
  });

  it('is the same the second time (memo)', () => {
    const text = 'function f(x) { return x * 2; } // twice';
    expect(countTokens(text)).toBe(countTokens(text));
  });
});

describe('estimateTokens', () => {
  it('is exact for texts of ordinary size', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(1000);
    expect(estimateTokens(text)).toBe(countTokens(text));
  });

  it('extrapolates a very long text within a few percent', () => {
    const code = readFileSync(path.join(HERE, '..', '..', 'src', 'context', 'context-monitor.ts'), 'utf8');
    const text = code.repeat(Math.ceil(400_000 / code.length));
    const estimate = estimateTokens(text);
    const truth = countTokens(text);
    expect(Math.abs(estimate - truth) / truth).toBeLessThan(0.05);
  });
});
