/** The one rule for text debussy did not write: shown, never executed by the terminal. */
import { describe, expect, it } from 'vitest';
import { inertJson, inertLine, inertText } from '../../src/text/inert-text.js';

describe('inertText', () => {
  it.each([
    // CSI, 7-bit and 8-bit
    ['colour codes', '\x1b[31mred\x1b[0m text', 'red text'],
    ['cursor movement and hiding', 'a\x1b[2Ab\x1b[Kc\x1b[?25l', 'abc'],
    ['clear screen and home', 'a\x1b[2J\x1b[Hb', 'ab'],
    ['a CSI with intermediates', 'a\x1b[1 qb', 'ab'],
    ['8-bit CSI (device status report)', 'a\u009b6nb', 'ab'],
    ['8-bit CSI colour', '\u009b31mred', 'red'],
    // control strings: the payload goes with them
    ['OSC 52 clipboard write ended by BEL', 'title\x1b]52;c;ZXZpbA==\x07 end', 'title end'],
    ['OSC ended by ST', 'a\x1b]0;window title\x1b\\b', 'ab'],
    ['OSC 8 hyperlink', '\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['8-bit OSC ended by 8-bit ST', 'a\u009d52;c;ZXZpbA==\u009cb', 'ab'],
    ['8-bit OSC ended by BEL', 'a\u009d0;title\x07b', 'ab'],
    ['OSC 9 and 777 notifications', '\x1b]9;hello\x07\x1b]777;notify;T;B\x07ok', 'ok'],
    ['DCS', 'a\x1bP1$r0m\x1b\\b', 'ab'],
    ['8-bit DCS', 'a\u0090q#0;2;0;0;0\u009cb', 'ab'],
    ['APC, PM and SOS', 'a\x1b_Gf=100;AAAA\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d', 'abcd'],
    ['an open OSC ends at the line end', 'a\x1b]52;c;ZXZpbA==\nnext line', 'a\nnext line'],
    ['an open OSC at the end', 'tail\x1b]0;never closed', 'tail'],
    // other escapes
    ['charset switch', '\x1b(Bok', 'ok'],
    ['screen alignment fill (ESC # 8)', 'a\x1b#8b', 'ab'],
    ['full reset (ESC c) and cursor save/restore', '\x1bca\x1b7b\x1b8', 'ab'],
    ['a lone ESC', 'a\x1b', 'a'],
    ['ESC before a newline', 'a\x1b\nb', 'a\nb'],
    ['an unfinished CSI leaves its parameters as text', 'a\x1b[12;', 'a12;'],
    // control characters
    ['bell, backspace and DEL', 'a\x07b\x08c\x7f', 'abc'],
    ['NUL, vertical tab and form feed', 'a\x00b\x0bc\x0cd', 'abcd'],
    ['C1 controls left alone (NEL, ST, IND)', 'a\u0085b\u009cc\u0084d', 'abcd'],
    ['CAN and SUB', 'a\x18b\x1ac', 'abc'],
    ['CR and CRLF become newlines', 'a\r\nb\rc', 'a\nb\nc'],
    ['tabs become two spaces', 'a\tb', 'a  b'],
    // bidirectional controls
    ['right-to-left override (Trojan Source)', 'access\u202e \u2066// admin\u2069\u2066', 'access // admin'],
    ['every embedding, override and isolate', '\u202a\u202b\u202c\u202d\u202ex\u2066\u2067\u2068\u2069', 'x'],
    ['the marks LRM, RLM and ALM are kept', 'a\u200eb\u200fc\u061cd', 'a\u200eb\u200fc\u061cd'],
    // what stays
    ['unicode text', 'héllo → ✓ 請求 שלום', 'héllo → ✓ 請求 שלום'],
    ['newlines', 'one\ntwo\n', 'one\ntwo\n'],
    ['brackets and semicolons without ESC', '[2J] 52;c; ]0;', '[2J] 52;c; ]0;'],
    ['empty', '', ''],
  ])('%s', (_, input, expected) => {
    expect(inertText(input)).toBe(expected);
  });

  it('removes every C0 and C1 control but newline and tab, alone or after ESC', () => {
    for (let code = 0; code <= 0x9f; code += 1) {
      if ((code >= 0x20 && code < 0x7f) || code === 0x0a || code === 0x09) continue;
      const char = String.fromCharCode(code);
      // eslint-disable-next-line no-control-regex
      for (const text of [`a${char}b`, `a\x1b${char}b`, `a${char}x;y\x07b`]) expect(inertText(text), JSON.stringify(text)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
  });
});

describe('inertLine', () => {
  it.each([
    ['folds whitespace', '  a\n\n b\t c ', 'a b c'],
    ['CR returns no longer overwrite the line', 'visible\rhidden', 'visible hidden'],
    ['a title with a clipboard write', 'Hostile\x1b]52;c;ZXZpbA==\x07\x1b[2J\x07\u009b6n\u202ePlan', 'HostilePlan'],
    ['a line break inside an open OSC', 'a\x1b]0;t\nb', 'a b'],
  ])('%s', (_, input, expected) => {
    expect(inertLine(input)).toBe(expected);
  });
});

describe('inertJson', () => {
  it.each([
    ['C1 and bidi controls JSON.stringify leaves raw', { t: 'a\u009b6n\u202eb\x7f' }, '{"t":"a\\u009b6n\\u202eb\\u007f"}'],
    ['C0 it escapes itself', { t: '\x1b]52;c;x\x07' }, '{"t":"\\u001b]52;c;x\\u0007"}'],
    ['the rest as JSON.stringify wrote it', { t: 'héllo "q" \n', n: 1 }, '{"t":"héllo \\"q\\" \\n","n":1}'],
  ])('%s', (_, value, expected) => {
    const json = inertJson(JSON.stringify(value));
    expect(json).toBe(expected);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('keeps JSON whitespace (pretty-printed) and neutralises a raw line that is not JSON', () => {
    const pretty = JSON.stringify({ a: [1, '\u0085'] }, null, '\t');
    expect(JSON.parse(inertJson(pretty))).toEqual({ a: [1, '\u0085'] });
    // eslint-disable-next-line no-control-regex
    expect(inertJson('not json \x1b]52;c;x\x07\u009b')).not.toMatch(/[\x1b\x07\x9b]/);
  });
});
