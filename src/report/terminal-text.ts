/**
 * Text that is safe to put on a terminal or in a CI log, and its width. What the agent writes (and
 * what its tools print) may carry escape sequences of its own: they would move our cursor, recolour
 * the log or break the pinned status area, so they are removed before anything is shown.
 */

import stringWidth from 'string-width';
import { oneLine } from '../text/one-line.js';

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and other two-byte ESC sequences.
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()*+][ -~]|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]/g;
// Control characters other than newline and tab, and DEL and the C1 range.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

/** Removes escape sequences and control characters; keeps newlines; tabs become two spaces. */
export function sanitizeText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(CONTROL, '');
}

/** Cleaned (sanitizeText) and folded to one line (oneLine): a condensed line safe on a terminal. */
export function terminalLine(text: string): string {
  return oneLine(sanitizeText(text));
}

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
