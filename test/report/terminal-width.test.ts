import { describe, expect, it } from 'vitest';
import { formatDuration, formatTokensShort } from '../../src/report/format-units.js';
import { truncateToWidth, visibleWidth } from '../../src/report/terminal-width.js';

describe('truncateToWidth', () => {
  it('leaves short lines alone and cuts long ones with an ellipsis', () => {
    expect(truncateToWidth('hello', 5)).toBe('hello');
    expect(truncateToWidth('hello world', 8)).toBe('hello w…');
    expect(truncateToWidth('hello world', 8, '...')).toBe('hello...');
    expect(visibleWidth(truncateToWidth('x'.repeat(200), 79))).toBe(79);
  });

  it('does not count colour codes and closes a colour it cut', () => {
    const line = `\x1b[31m${'r'.repeat(10)}\x1b[39m tail`;
    expect(visibleWidth(line)).toBe(15);
    const cut = truncateToWidth(line, 6);
    expect(visibleWidth(cut)).toBe(6);
    expect(cut).toBe('\x1b[31mrrrrr\x1b[0m…');
  });
});

describe('units', () => {
  it.each([
    [undefined, '-'], [0, '0s'], [59_999, '59s'], [60_000, '1m00s'], [3_599_000, '59m59s'], [3_600_000, '1h00m'], [-5, '-'],
  ])('formatDuration(%s) = %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });

  it.each([[950, '950'], [12_345, '12.3k'], [200_000, '200k'], [1_250_000, '1.25M'], [2_000_000, '2M']])('formatTokensShort(%s) = %s', (n, expected) => {
    expect(formatTokensShort(n)).toBe(expected);
  });
});
