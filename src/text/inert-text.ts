/**
 * Text debussy did not write (plan and phase files, the agent's words, tool names, inputs and
 * output, gate output, API errors, the journal's copies of all these) made inert: a terminal shows
 * it and never executes it. An OSC 52 sequence in a plan's title would otherwise write the
 * clipboard each time the title is printed, and again from `git log` once it is in a commit.
 * This module is the one place that rule is written; debussy's own colour and cursor codes
 * (color.ts, pinned-area.ts) are added around its results, never passed through it.
 *
 * What goes, whole, so no payload is left to print (a clipboard's content, a window title):
 * - CSI sequences: ESC [ or the 8-bit U+009B, parameters, intermediates, a final byte
 *   (colour, cursor movement, clearing, device status queries whose answers arrive as input).
 * - Control strings: OSC (ESC ], U+009D), DCS (ESC P, U+0090), SOS (ESC X, U+0098), PM (ESC ^,
 *   U+009E) and APC (ESC _, U+009F), up to BEL or ST (ESC \, U+009C). One left open ends at the
 *   line's end here: what follows it is plain text once its introducer is gone.
 * - Other escapes: ESC, intermediates, a final byte (charset switches, ESC # 8 screen fill, ESC c
 *   reset, ESC 7 / ESC 8 cursor save and restore).
 * - Every control character left: C0 but newline and tab, DEL, C1 U+0080..U+009F (a terminal in
 *   UTF-8 may act on these as on their ESC forms).
 * - The bidirectional embedding, override and isolate controls U+202A..U+202E and U+2066..U+2069
 *   ("Trojan Source", CVE-2021-42574): they make a title or a commit subject display in another
 *   order than its characters, on terminals that do bidi and on web views of `git log`. Right-to-
 *   left text needs none of them (the implicit bidi algorithm orders it); the marks U+200E,
 *   U+200F and U+061C, which cannot move other text, are kept.
 * Removed rather than shown escaped: most of it is the colour of a test runner's output, which a
 * log is better without. `debussy audit` warns when what it shows of a plan holds any (plan/audit.ts).
 */
import { oneLine } from './one-line.js';

/* eslint-disable no-control-regex */
const ESCAPE_SEQUENCE = new RegExp(
  [
    /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/.source,
    /(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?/.source,
    /\x1b[ -/]*[0-~]/.source,
  ].join('|'),
  'g',
);
/** After the sequences: controls but newline and tab, DEL, C1, the bidi embeddings, overrides and isolates. */
const UNSAFE_CHARACTER = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
/** The same less CR: with tab and LF, JSON whitespace, and ordinary in a file. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
/** Anything inertText changes: with none (most text), one scan and no copy. */
const TO_CHANGE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
/* eslint-enable no-control-regex */

/** Whether text holds anything inertText would remove but tabs and line ends: ESC, BEL, C1, a bidi override... */
export function holdsControls(text: string): boolean {
  return CONTROL.test(text);
}

/** Inert, keeping its lines: CR and CRLF become newlines, a tab two spaces (tab stops would break the live view's measure). */
export function inertText(text: string): string {
  if (!TO_CHANGE.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(UNSAFE_CHARACTER, '');
}

/** Inert and on one line (oneLine): for a title, a name, a reason, a condensed step. */
export function inertLine(text: string): string {
  return oneLine(inertText(text));
}

/**
 * JSON text for a terminal: each control character (CONTROL) written as a \u escape, which a JSON
 * reader decodes back, so a program loses nothing and a terminal executes nothing (JSON.stringify
 * escapes C0 itself but leaves DEL, C1 and the bidi controls raw). For JSON.stringify's output, and
 * for lines that should be JSON (claude's raw stream), where it also breaks up a raw ESC sequence.
 */
export function inertJson(json: string): string {
  return json.replace(CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
