/**
 * cl100k_base's pre-tokenizer: splits text into the pieces that are merged separately. The
 * pattern (js-tiktoken's `pat_str`) is, alternatives in order:
 *
 *   1. 's|'t|'re|'ve|'m|'ll|'d in any case     4. [ ]?[^\s\p{L}\p{N}]+[\r\n]*
 *   2. [^\r\n\p{L}\p{N}]?\p{L}+                 5. \s*[\r\n]+
 *   3. \p{N}{1,3}                               6. \s+(?!\S)
 *                                               7. \s+
 *
 * Every char is matched by one of them, so each piece starts where the last one ended. Running the
 * regex for each piece took ~60% of the counting time, so ASCII text is split here by hand, trying
 * the alternatives in the same order; wherever the choice depends on a char outside ASCII (it may
 * be a letter, digit or space of Unicode's), the regex decides instead. The tests compare both on
 * random text.
 */
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

// Char classes: OTHER is [^\s\p{L}\p{N}]; NEWLINE (\r, \n) and SPACE (\t, \v, \f, ' ') are \s.
// UNKNOWN is any char outside ASCII (it may be a letter, digit or space of Unicode's): the regex
// decides. END is past the end of the text. One table for every UTF-16 code unit (64 KB), so that
// a class is one array read.
const UNKNOWN = 0;
const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const NEWLINE = 4;
const OTHER = 5;
const END = 6;

const CLASSES = new Uint8Array(0x10000);
CLASSES.fill(OTHER, 0, 0x80);
for (let c = 0x41; c <= 0x5a; c++) CLASSES[c] = CLASSES[c + 0x20] = LETTER;
for (let c = 0x30; c <= 0x39; c++) CLASSES[c] = DIGIT;
for (const c of [0x09, 0x0b, 0x0c, 0x20]) CLASSES[c] = SPACE;
CLASSES[0x0a] = CLASSES[0x0d] = NEWLINE;

const APOSTROPHE = 0x27;

function classAt(text: string, i: number): number {
  return i < text.length ? CLASSES[text.charCodeAt(i)]! : END;
}

/** The end of the run of chars of class `cls` from `i`; -1 if a non-ASCII char ends it (it might go on). */
function runEnd(text: string, i: number, cls: number): number {
  let next = classAt(text, i);
  while (next === cls) next = classAt(text, ++i);
  return next === UNKNOWN ? -1 : i;
}

/** Where the piece starting at `start` ends, found by hand in ASCII text; -1 when the regex must decide. */
function asciiPieceEnd(text: string, start: number): number {
  const first = classAt(text, start);
  const second = classAt(text, start + 1);
  // The choice looks at two chars at most, and then at the length of a run.
  if (first === UNKNOWN || second === UNKNOWN) return -1;
  // 2. Letters (1. starts with an apostrophe, so cannot match first).
  if (first === LETTER) return runEnd(text, start + 1, LETTER);
  // 3. Up to three digits (1. and 2. cannot start with a digit).
  if (first === DIGIT) {
    if (second !== DIGIT) return start + 1;
    const third = classAt(text, start + 2);
    return third === DIGIT ? start + 3 : third === UNKNOWN ? -1 : start + 2;
  }
  // 1. A contraction.
  if (text.charCodeAt(start) === APOSTROPHE && second === LETTER) {
    const letter = text.charCodeAt(start + 1) | 0x20; // lower case
    if (letter === 0x73 || letter === 0x74 || letter === 0x6d || letter === 0x64) return start + 2; // s t m d
    const next = text.charCodeAt(start + 2) | 0x20;
    if ((letter === 0x72 || letter === 0x76) && next === 0x65) return start + 3; // re ve
    if (letter === 0x6c && next === 0x6c) return start + 3; // ll
  }
  // 2. Letters after one char that is not a newline, letter or digit.
  if ((first === OTHER || first === SPACE) && second === LETTER) return runEnd(text, start + 2, LETTER);
  // 4. Other chars, after at most one space, then any newlines.
  if (first === OTHER || (second === OTHER && text.charCodeAt(start) === 0x20)) {
    let end = runEnd(text, first === OTHER ? start + 1 : start + 2, OTHER);
    if (end === -1) return -1;
    while (classAt(text, end) === NEWLINE) end++;
    return end;
  }
  // 5-7. A run of whitespace (first is SPACE or NEWLINE here).
  let end = start;
  let lastNewline = -1;
  for (let cls = first; cls === SPACE || cls === NEWLINE; cls = classAt(text, ++end)) {
    if (cls === NEWLINE) lastNewline = end;
  }
  if (classAt(text, end) === UNKNOWN) return -1; // a Unicode space might go on
  // 5. Up to its last newline.
  if (lastNewline !== -1) return lastNewline + 1;
  // 6. All of it at the end of the text, else all but its last char (which goes with what follows).
  if (end === text.length) return end;
  if (end - start >= 2) return end - 1;
  // 7. A lone space before something else.
  return end;
}

/** Splits text into pieces: `pieceEnd(text, start)` is where the piece starting at `start` ends. */
export class PreTokenizer {
  /** The pattern, sticky: it matches at `lastIndex` exactly. */
  private readonly pattern = new RegExp(cl100kBase.pat_str, 'uy');

  pieceEnd(text: string, start: number): number {
    const end = asciiPieceEnd(text, start);
    if (end !== -1) return end;
    this.pattern.lastIndex = start;
    // Cannot fail (every char is matched by some alternative); were it to, the rest is one piece.
    return this.pattern.test(text) ? this.pattern.lastIndex : text.length;
  }
}
