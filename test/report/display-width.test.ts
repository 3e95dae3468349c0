/** Display width: CJK and emoji take two columns, combining marks none; cuts never split a character. */
import { describe, expect, it } from 'vitest';
import { truncateToWidth, visibleWidth } from '../../src/report/terminal-width.js';

describe('visibleWidth', () => {
  it.each([
    ['plain', 5],
    ['請求', 4],
    ['a😀b', 4],
    ['👩‍💻', 2],
    ['e\u0301', 1],
    ['\x1b[36m請求\x1b[0m', 4],
    ['', 0],
  ])('%j is %i columns', (text, width) => expect(visibleWidth(text)).toBe(width));
});

describe('truncateToWidth by display width', () => {
  it.each([
    ['請求サービス', 6, '請求…', 5],
    ['請求サービス', 7, '請求サ…', 7],
    ['ab請求', 4, 'ab…', 3],
    ['a😀😀', 4, 'a😀…', 4],
    ['請求', 4, '請求', 4],
  ])('%j in %i columns is %j (%i wide)', (text, width, cut, shown) => {
    const result = truncateToWidth(text, width);
    expect(result).toBe(cut);
    expect(visibleWidth(result)).toBe(shown);
    expect(visibleWidth(result)).toBeLessThanOrEqual(width);
  });

  it('keeps colour codes whole and resets after a cut', () => {
    expect(truncateToWidth('\x1b[36m請求サービス\x1b[0m', 5)).toBe('\x1b[36m請求\x1b[0m…');
  });
});
