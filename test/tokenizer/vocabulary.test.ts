import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { loadVocabulary, NOT_A_TOKEN, type Vocabulary } from '../../src/tokenizer/vocabulary.js';

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
