/** The one fold to a line and the one count format every writer uses. */
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/text/format-count.js';
import { oneLine } from '../../src/text/one-line.js';
import { shellQuote, shellWord } from '../../src/text/shell-quote.js';

describe('oneLine', () => {
  it.each([
    ['  a\n\n b\t c ', 'a b c'],
    ['one', 'one'],
    ['\r\n', ''],
  ])('%j -> %j', (text, line) => {
    expect(oneLine(text)).toBe(line);
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [165_000.4, '165,000'],
    [1_234_567, '1,234,567'],
    [-12_345, '-12,345'],
  ])('%d -> %s', (value, text) => {
    expect(formatCount(value)).toBe(text);
  });

  it('reads as en-US does, whatever the locale', () => {
    for (const value of [7, 12_345, 200_000, 1_000_000, 987_654_321]) expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
  });
});

describe('shellQuote and shellWord', () => {
  it.each([
    ['plain', "'plain'", 'plain'],
    ['/tmp/debussy-stop-1', "'/tmp/debussy-stop-1'", '/tmp/debussy-stop-1'],
    ['two words', "'two words'", "'two words'"],
    ["it's", "'it'\\''s'", "'it'\\''s'"],
    ['$HOME;rm', "'$HOME;rm'", "'$HOME;rm'"],
  ])('%s', (text, quoted, word) => {
    expect(shellQuote(text)).toBe(quoted);
    expect(shellWord(text)).toBe(word);
  });
});
