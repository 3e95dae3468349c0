/** What a failing gate's output says failed: test runners' failing-test lines, else error lines. */
import { describe, expect, it } from 'vitest';
import { comparable, FailureCollector, failingTestOf, failuresIn, MAX_FAILURE_ITEMS } from '../../src/verification/failure-lines.js';

describe('failingTestOf', () => {
  it.each<[string, string, string | undefined]>([
    ['vitest summary', ' FAIL  test/parser.test.ts > parser > parses x', 'test/parser.test.ts > parser > parses x'],
    ['vitest tree, with its time', '   × parser > parses x 12ms', 'parser > parses x'],
    ['vitest, coloured', '\u001b[31m FAIL \u001b[39m test/a.test.ts > one', 'test/a.test.ts > one'],
    ['jest file line', 'FAIL src/sum.test.js', 'src/sum.test.js'],
    ['jest test line, with its time', '    ✕ adds 1 + 2 (5 ms)', 'adds 1 + 2'],
    ['jest failure heading', '  ● sum › adds 1 + 2', 'sum › adds 1 + 2'],
    ["jest's console block is no test", '  ● Console', undefined],
    ['node:test spec', '✖ parses x (1.2ms)', 'parses x'],
    ['pytest short summary', 'FAILED tests/test_a.py::test_b[1-2] - AssertionError: boom', 'tests/test_a.py::test_b[1-2]'],
    ['pytest collection error', 'ERROR tests/test_c.py - ModuleNotFoundError', 'tests/test_c.py'],
    ['pytest -v', 'tests/test_a.py::test_b FAILED                  [ 50%]', 'tests/test_a.py::test_b'],
    ['unittest', 'FAIL: test_parse (test_mod.ParserTest)', 'test_parse (test_mod.ParserTest)'],
    ['go test', '--- FAIL: TestParse/empty (0.00s)', 'TestParse/empty'],
    ['go package line', 'FAIL\texample.com/m/parser\t0.012s', 'example.com/m/parser'],
    ['go build failure', 'FAIL\texample.com/m/parser [build failed]', 'example.com/m/parser [build failed]'],
    ["go's last line names nothing", 'FAIL', undefined],
    ['cargo', 'test parser::tests::parses_x ... FAILED', 'parser::tests::parses_x'],
    ['TAP', 'not ok 3 - parses x', 'parses x'],
    ['rspec', 'rspec ./spec/parser_spec.rb:12 # Parser parses x', './spec/parser_spec.rb:12'],
    ['a passing test', ' ✓ parser > parses x 3ms', undefined],
    ['prose that mentions failing', 'the build failed', undefined],
  ])('%s', (_name, line, expected) => {
    expect(failingTestOf(line)).toBe(expected);
  });
});

describe('failuresIn', () => {
  it('names the failing tests when the runner names any', () => {
    expect(failuresIn(' ✓ a > one\n FAIL  a > two\nAssertionError: expected 1 to be 2\n FAIL  a > two\n')).toEqual({ by: 'tests', items: ['a > two'] });
  });

  it('takes mocha\'s numbered failures only when it says how many failed', () => {
    const mocha = '  parser\n    ✓ parses y\n    1) parses x\n\n  1 passing (8ms)\n  1 failing\n\n  1) parser\n       parses x:\n     AssertionError: expected 1 to equal 2\n';
    expect(failuresIn(mocha)?.by).toBe('tests');
    expect(failuresIn(mocha)?.items).toContain('parses x');
    expect(failuresIn('Steps:\n  1) install\n  2) build\n')).toBeUndefined();
  });

  it('else the lines that look like errors, each once by its comparable form', () => {
    expect(failuresIn("compiling\nsrc/a.ts(3,5): error TS2304: Cannot find name 'x'.\nsrc/a.ts(9,5): error TS2304: Cannot find name 'x'.\ndone")).toEqual({
      by: 'lines', items: ["src/a.ts(3,5): error TS2304: Cannot find name 'x'."],
    });
  });

  it('else nothing', () => {
    expect(failuresIn('checking\nno\n')).toBeUndefined();
  });
});

describe('FailureCollector', () => {
  it('reads lines split across chunks', () => {
    const collector = new FailureCollector();
    for (const chunk of [' FA', 'IL  a > o', 'ne\n FAIL  a > two']) collector.push(chunk);
    expect(collector.end()).toEqual({ by: 'tests', items: ['a > one', 'a > two'] });
  });

  it('keeps at most MAX_FAILURE_ITEMS names, whatever the output', () => {
    const collector = new FailureCollector();
    for (let i = 0; i < MAX_FAILURE_ITEMS + 50; i++) collector.push(` FAIL  t > case ${i}\n`);
    expect(collector.end()?.items).toHaveLength(MAX_FAILURE_ITEMS);
  });
});

describe('comparable', () => {
  it('makes numbers, colours and spacing equal', () => {
    expect(comparable('\u001b[31mfound  12 errors in 3.2s\u001b[0m')).toBe(comparable('found 4 errors in 10.9s'));
  });
});
