import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, estimateTokens } from '../../src/tokenizer/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const reference = new Tiktoken(cl100kBase);
const exact = (text: string) => reference.encode(text, [], []).length;

/** A small seeded generator (mulberry32): the same random texts on every run. */
function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomText(seed: number, alphabet: string, length: number): string {
  const random = seededRandom(seed);
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}

describe('countTokens', () => {
  const samples: Array<[string, string]> = [
    ['empty', ''],
    ['a word', 'hello'],
    ['prose', 'The quick brown fox jumps over the lazy dog. It was not amused!\n\nNew paragraph.'],
    ['code', readFileSync(path.join(HERE, '..', '..', 'src', 'tokenizer', 'token-count.ts'), 'utf8')],
    ['a recorded stream', readFileSync(path.join(HERE, '..', 'fixtures', 'streams', '2.1.332', 'multi-tool-session.ndjson'), 'utf8')],
    ['unicode', 'héllo wörld — 日本語のテキスト 😀🎉 ñ'.repeat(20)],
    ['whitespace runs', 'a    b\t\t\tc\n\n\n\n   \r\n d      '],
    ['special-token markers as text', 'before <|endoftext|> after <|fim_prefix|>'],
    ['digits', '1234567890 3.14159 0xdeadbeef'],
    ['a long letter run', 'a'.repeat(200)],
  ];

  it.each(samples)('%s: same count as js-tiktoken encode()', (_name, text) => {
    expect(countTokens(text)).toBe(exact(text));
  });

  // Pieces over 64 bytes take the heap merge instead of the rescanning one.
  const longPieces: Array<[string, string]> = [
    ['one letter', 'Q'.repeat(1_000)],
    ['letters', randomText(1, 'abcdefghijklmnopqrstuvwxyz', 700)],
    ['an identifier', randomText(2, 'abcdeXYZ_09', 900)],
    ['base64', randomText(3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 1_200)],
    ['accented letters', 'é'.repeat(300) + 'ü'.repeat(200)],
    ['a whitespace run', ' \t'.repeat(200) + 'x'],
    ['a punctuation run', '=-*'.repeat(150)],
    ['a run at the scan limit', 'ab'.repeat(32)],
    ['a run just past it', 'ab'.repeat(32) + 'c'],
  ];

  it.each(longPieces)('a piece of hundreds of bytes (%s): same count as js-tiktoken encode()', (_name, text) => {
    expect(countTokens(text)).toBe(exact(text));
  });

  it('gives the same counts as js-tiktoken encode() on random mixed text', () => {
    const random = seededRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const fragments: Array<() => string> = [
      () => pick(['the', ' function', ' return', 'const', ' x', 'Hello', ' world', 'import', ' tokenizer']),
      () => randomText(random() * 1e9, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 1 + Math.floor(random() * 12)),
      // Long identifiers: one piece of more than 256 bytes, and one split at '_' and digits.
      () => randomText(random() * 1e9, 'abcdefghXYZ', 257 + Math.floor(random() * 100)),
      () => randomText(random() * 1e9, 'abcdeXYZ_01', 257 + Math.floor(random() * 200)),
      () => String(Math.floor(random() * 1e9)) + pick(['', '.', ',', ' ']) + String(Math.floor(random() * 1e6)),
      () => pick([' ', '  ', '\t', '\n', '\r\n', '\n\n', '   \n', ' \t \n ', '\u00a0', '\u3000', '\u2028', '\v', '\f']).repeat(1 + Math.floor(random() * 6)),
      () => pick(["'s", "'S", "'ll", "'LL", "'Re", "'ve", "'d", "'m", "'t", "'x"]),
      () => pick(['(', ')', '{', '}', '=>', '===', '//', '/*', ';', ',', '...', '<|endoftext|>', '```', '->', '#', '&&', '\\', '"', '`']),
      () => pick(['héllo', 'wörld', 'naïve', 'Ελληνικά', 'русский', '日本語のテキスト', '中文', '한국어', 'עברית', 'العربية', 'हिन्दी', 'ß', 'ﬁ', '½', '²', '٣', '①']),
      () => pick(['😀', '🎉', '👍🏽', '👨‍👩‍👧‍👦', '🇯🇵', '❤️', '𝔘𝔫𝔦', '𐍈']),
      () => pick(['\ud800', '\udc00', 'a\ud83dz', '\udfff\ud800']),
      () => String.fromCharCode(Math.floor(random() * 0x20), 0x7f + Math.floor(random() * 0x30)),
      () => String.fromCodePoint(0x80 + Math.floor(random() * 0x2fff), 0x10000 + Math.floor(random() * 0x2ffff)),
    ];
    let compared = 0;
    for (let i = 0; i < 120; i++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 30) }, () => pick(fragments)());
      const text = parts.join(pick(['', '', ' ', '\n']));
      expect(countTokens(text), JSON.stringify(text)).toBe(exact(text));
      compared += text.length;
    }
    expect(compared).toBeGreaterThan(20_000);
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
