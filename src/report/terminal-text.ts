/**
 * Text that is safe to put on a terminal or in a CI log. What the agent writes (and what its tools
 * print) may carry escape sequences of its own: they would move our cursor, recolour the log or
 * break the pinned status area, so they are removed before anything is shown. Its width on a
 * terminal is terminal-width.ts's job.
 */

import { oneLine } from '../text/one-line.js';

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and other two-byte ESC sequences.
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()*+][ -~]|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]/g;
// Control characters other than newline and tab, and DEL and the C1 range.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Removes escape sequences and control characters; keeps newlines; tabs become two spaces. */
export function sanitizeText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(CONTROL, '');
}

/** Cleaned (sanitizeText) and folded to one line (oneLine): a condensed line safe on a terminal. */
export function terminalLine(text: string): string {
  return oneLine(sanitizeText(text));
}
