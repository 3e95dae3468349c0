/**
 * How many columns text takes on a terminal, and cutting it to a width: for the live view only.
 * Kept apart from the rest of the reporters' text because string-width builds Unicode property regexes and an
 * Intl.Segmenter when it loads (~20 ms of CPU): a plain or --json run, and every command but a
 * live `run`, never loads it (create-reporters.ts imports the live view lazily).
 */

import stringWidth from 'string-width';

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * Columns a line takes on a terminal, ignoring our own colour codes: CJK and emoji take two,
 * combining marks none (string-width, the measure terminals' own wcwidth tables follow).
 */
export function visibleWidth(text: string): number {
  return stringWidth(text.replace(SGR, ''));
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Cuts a line to at most `width` columns, keeping colour codes whole and ending with `…` when cut.
 * A cut line that carried colour codes ends with a reset, so no colour leaks past it.
 */
export function truncateToWidth(text: string, width: number, ellipsis = '…'): string {
  if (visibleWidth(text) <= width) return text;
  const room = Math.max(0, width - visibleWidth(ellipsis));
  let out = '';
  let shown = 0;
  let sawCode = false;
  // The line as alternating plain text and colour codes.
  // eslint-disable-next-line no-control-regex
  for (const part of text.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith('\x1b[')) {
      out += part;
      sawCode = true;
      continue;
    }
    // Whole characters only: a two-column one that does not fit is left out, not cut in half.
    for (const { segment } of graphemes.segment(part)) {
      const columns = stringWidth(segment);
      if (shown + columns > room) {
        shown = room;
        break;
      }
      out += segment;
      shown += columns;
    }
    if (shown >= room) break;
  }
  return `${out}${sawCode ? '\x1b[0m' : ''}${width > room ? ellipsis.slice(0, width - room) : ''}`;
}
