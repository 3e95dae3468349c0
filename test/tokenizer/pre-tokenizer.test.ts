import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { PreTokenizer } from '../../src/tokenizer/pre-tokenizer.js';

const splitter = new PreTokenizer();
const split = (text: string): string[] => {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = splitter.pieceEnd(text, start);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
};
const byRegex = (text: string): string[] => [...text.matchAll(new RegExp(cl100kBase.pat_str, 'gu'))].map((m) => m[0]);

describe('PreTokenizer', () => {
  it.each([
    ["contractions", "it's 'S 'll 'LL 'Re 've 'd 'm 't 'x 'sa"],
    ['letters after a space, a tab or a bracket', ' foo\tbar(baz'],
    ['digits by three', '1234567 12 3.14'],
    ['other chars, then newlines', 'a {}\n\n  x;\r\n'],
    ['whitespace runs', 'a   b\t\t\tc\n\n\n   d  \n e      '],
    ['a space before a digit or a newline', ' 1 \n'],
    ['text ending in spaces', 'x  '],
    ['non-ASCII letters, digits and spaces', 'héllo wörld ٣٤ a\u00a0b \u3000 x\u2028y 日本語 😀 \ud800'],
  ])('splits %s as the regex does', (_name, text) => {
    expect(split(text)).toEqual(byRegex(text));
  });

  it('splits random text as the regex does', () => {
    let state = 11;
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const atoms = [
      ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)),
      "'s", "'ll", "'RE", "'Ve", ' ', '  ', '\r\n', 'é', 'É', '日', '٣', '①', '\u00a0', '\u2028', '\u3000', '—', '😀', '\ud800', '\udc00',
    ];
    const mismatches: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      let text = '';
      for (let n = 1 + Math.floor(random() * 12); n > 0; n--) text += atoms[Math.floor(random() * atoms.length)];
      if (JSON.stringify(split(text)) !== JSON.stringify(byRegex(text))) mismatches.push(text);
    }
    expect(mismatches).toEqual([]);
  });
});
