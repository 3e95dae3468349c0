import { describe, expect, it } from 'vitest';
import { MEMO_MAX_BYTES, PieceMemo } from '../../src/tokenizer/piece-memo.js';

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

describe('PieceMemo', () => {
  it('returns what was memoized for the same bytes, -1 for others', () => {
    const memo = new PieceMemo();
    const key = bytesOf('tokenizer');
    expect(memo.get(key, key.length)).toBe(-1);
    memo.set(key, key.length, 3);
    expect(memo.get(key, key.length)).toBe(3);
    expect(memo.get(bytesOf('tokenizes'), key.length)).toBe(-1);
    // Only the first `length` bytes are the key.
    expect(memo.get(bytesOf('tokenizer, again'), key.length)).toBe(3);
    expect(memo.get(key, key.length - 1)).toBe(-1);
  });

  it('never answers a wrong count, however many pieces pass through it', () => {
    const memo = new PieceMemo();
    const countOf = (i: number) => i % 7;
    const keyOf = (i: number) => bytesOf(`p${i.toString(36)}`.padEnd(2 + (i % (MEMO_MAX_BYTES - 2)), '_'));
    for (let i = 0; i < 100_000; i++) {
      const key = keyOf(i);
      memo.set(key, key.length, countOf(i));
    }
    let found = 0;
    const wrong: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      const key = keyOf(i);
      const got = memo.get(key, key.length);
      if (got !== -1 && got !== countOf(i)) wrong.push(i);
      if (got !== -1) found++;
    }
    expect(wrong).toEqual([]);
    // The most recent pieces are still there.
    expect(found).toBeGreaterThan(5_000);
    const last = keyOf(99_999);
    expect(memo.get(last, last.length)).toBe(countOf(99_999));
  });
});
