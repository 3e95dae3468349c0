import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { loadVocabulary, NOT_A_TOKEN, vocabularyFromFile, type Vocabulary } from '../../src/tokenizer/vocabulary.js';

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const rankOfText = (vocab: Vocabulary, text: string) => {
  const bytes = bytesOf(text);
  return vocab.rankOf(bytes, 0, bytes.length);
};

describe('loadVocabulary', () => {
  it('finds every cl100k_base token at its rank, decoded as Buffer decodes base64', () => {
    const vocab = loadVocabulary(cl100kBase.bpe_ranks);
    let checked = 0;
    const wrong: string[] = [];
    for (const line of cl100kBase.bpe_ranks.split('\n')) {
      if (line === '') continue;
      const [, offset, ...tokens] = line.split(' ');
      tokens.forEach((token, i) => {
        // Each token between other bytes: a lookup reads only its span.
        const decoded = Buffer.from(token, 'base64');
        const bytes = new Uint8Array(decoded.length + 2);
        bytes.set(decoded, 1);
        if (vocab.rankOf(bytes, 1, bytes.length - 1) !== Number(offset) + i) wrong.push(token);
        checked++;
      });
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(100_256);
  });

  it('says NOT_A_TOKEN for bytes that are not a token', () => {
    const vocab = loadVocabulary(cl100kBase.bpe_ranks);
    expect(rankOfText(vocab, ' function')).not.toBe(NOT_A_TOKEN);
    expect(rankOfText(vocab, 'qzxqzxqzx')).toBe(NOT_A_TOKEN);
    expect(rankOfText(vocab, 'a'.repeat(200))).toBe(NOT_A_TOKEN);
    expect(rankOfText(vocab, '')).toBe(NOT_A_TOKEN);
  });

  it('reads several lines, gaps between ranks and every padding', () => {
    const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
    // 'A' (QQ==), 'AB' (QUI=), 'ABC' (QUJD), 'ABCD' (QUJDRA==), then a second line from rank 10.
    const ranks = `! 0 ${b64('A')} ${b64('AB')} ${b64('ABC')} ${b64('ABCD')}\n? 10 ${b64('\u00ff\u0000')} ${b64('xyz')}\n`;
    const vocab = loadVocabulary(ranks);
    const rank = (latin1: string) => {
      const bytes = new Uint8Array(Buffer.from(latin1, 'latin1'));
      return vocab.rankOf(bytes, 0, bytes.length);
    };
    expect([rank('A'), rank('AB'), rank('ABC'), rank('ABCD'), rank('\u00ff\u0000'), rank('xyz')]).toEqual([0, 1, 2, 3, 10, 11]);
    expect(rank('B')).toBe(NOT_A_TOKEN);
    expect(rank('ABCDE')).toBe(NOT_A_TOKEN);
  });

  it('keeps the later rank of a token listed twice, as a Map would', () => {
    const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
    const vocab = loadVocabulary(`! 0 ${b64('x')} ${b64('y')} ${b64('x')}\n`);
    expect(rankOfText(vocab, 'x')).toBe(2);
    expect(rankOfText(vocab, 'y')).toBe(1);
  });
});

describe('vocabulary files', () => {
  const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
  /** Every cl100k_base token, and spans that are not tokens, looked up in both. */
  const sameLookups = (a: Vocabulary, b: Vocabulary, ranks: string) => {
    const differing: string[] = [];
    for (const line of ranks.split('\n')) {
      for (const token of line.split(' ').slice(2)) {
        const bytes = new Uint8Array(Buffer.from(token, 'base64'));
        if (a.rankOf(bytes, 0, bytes.length) !== b.rankOf(bytes, 0, bytes.length)) differing.push(token);
        const longer = new Uint8Array([...bytes, 0x7a, 0x71]);
        if (a.rankOf(longer, 0, longer.length) !== b.rankOf(longer, 0, longer.length)) differing.push(`${token}+zq`);
      }
    }
    return differing;
  };

  it('hold cl100k_base whole: a vocabulary read from one looks up as the one it was written from', () => {
    const built = loadVocabulary(cl100kBase.bpe_ranks);
    const read = vocabularyFromFile(built.toFile());
    expect(read).toBeDefined();
    expect(sameLookups(built, read!, cl100kBase.bpe_ranks)).toEqual([]);
    expect(rankOfText(read!, ' function')).toBe(rankOfText(built, ' function'));
    expect(rankOfText(read!, 'qzxqzxqzx')).toBe(NOT_A_TOKEN);
  });

  it('keep ranks that are not the token numbers, and are read from bytes at any offset', () => {
    const ranks = `! 0 ${b64('A')} ${b64('AB')}\n? 10 ${b64('\u00ff\u0000')} ${b64('xyz')}\n`;
    const built = loadVocabulary(ranks);
    const file = built.toFile();
    // A Buffer from the pool, 1 byte in: not aligned for the typed arrays.
    const unaligned = new Uint8Array(file.length + 1).subarray(1);
    unaligned.set(file);
    for (const bytes of [file, unaligned]) {
      const read = vocabularyFromFile(bytes)!;
      expect(['A', 'AB', '\u00ff\u0000', 'xyz', 'B'].map((text) => {
        const b = new Uint8Array(Buffer.from(text, 'latin1'));
        return read.rankOf(b, 0, b.length);
      })).toEqual([0, 1, 10, 11, NOT_A_TOKEN]);
    }
  });

  it.each([
    ['empty', () => new Uint8Array(0)],
    ['another format', (file: Uint8Array) => Object.assign(file.slice(), { 0: 0x41 })],
    ['another version', (file: Uint8Array) => Object.assign(file.slice(), { 4: 99 })],
    ['cut short', (file: Uint8Array) => file.slice(0, file.length - 4)],
    ['one word too long', (file: Uint8Array) => new Uint8Array([...file, 0, 0, 0, 0])],
  ])('are refused when %s (the caller decodes the ranks instead)', (_name, spoil) => {
    const file = loadVocabulary(`! 0 ${b64('A')} ${b64('AB')}\n`).toFile();
    expect(vocabularyFromFile(file)).toBeDefined();
    expect(vocabularyFromFile(spoil(file))).toBeUndefined();
  });
});
