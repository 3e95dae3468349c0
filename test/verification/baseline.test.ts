/** Inherited or introduced: a gate failure against the phase's baseline, by what fails, and whether it blocks. */
import { describe, expect, it } from 'vitest';
import { blockingFailures, compareWithBaseline, isInherited, splitByBaseline, type GateVerdict } from '../../src/verification/baseline.js';

const run = (name: string, passed: boolean, outputTail = '', extra: Partial<GateVerdict> = {}): GateVerdict => ({ name, command: `run ${name}`, passed, exitCode: passed ? 0 : 1, outputTail, ...extra });
const failing = (name: string, outputTail = 'broken') => run(name, false, outputTail);

describe('splitByBaseline', () => {
  const cases: { name: string; failed: GateVerdict[]; baseline: GateVerdict[] | undefined; inherited: string[]; introduced: string[] }[] = [
    { name: 'no baseline: every failure is introduced', failed: [failing('a'), failing('b')], baseline: undefined, inherited: [], introduced: ['a', 'b'] },
    { name: 'failed before and now, the same way: inherited', failed: [failing('a')], baseline: [failing('a')], inherited: ['a'], introduced: [] },
    { name: 'passed before, fails now: introduced', failed: [failing('a')], baseline: [run('a', true)], inherited: [], introduced: ['a'] },
    { name: 'not in the baseline (a gate added since): introduced', failed: [failing('b')], baseline: [failing('a')], inherited: [], introduced: ['b'] },
    { name: 'same name, other command: introduced', failed: [failing('a')], baseline: [{ ...failing('a'), command: 'old command' }], inherited: [], introduced: ['a'] },
    { name: 'failed before, fails differently now: introduced', failed: [failing('a', 'FAIL parser.test.js > parses x')], baseline: [failing('a', "Error: Cannot find module './parser'")], inherited: [], introduced: ['a'] },
    { name: 'a mix keeps the plan order within each', failed: [failing('a'), failing('b'), failing('c')], baseline: [failing('a'), run('b', true), failing('c')], inherited: ['a', 'c'], introduced: ['b'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const split = splitByBaseline(c.failed, c.baseline);
      expect(split.inherited.map((g) => g.name)).toEqual(c.inherited);
      expect(split.introduced.map((g) => g.name)).toEqual(c.introduced);
    });
  }

  it('says of each gate how it stands against the baseline', () => {
    const split = splitByBaseline([failing('a'), failing('b'), failing('c')], [failing('a'), run('b', true)]);
    expect(split.inherited.map((g) => g.vsBaseline)).toEqual([{ kind: 'same' }]);
    expect(split.introduced.map((g) => g.vsBaseline)).toEqual([{ kind: 'passed_before' }, { kind: 'not_run_before' }]);
  });
});

describe('compareWithBaseline: a gate that failed before, by what fails now', () => {
  const vitest = (...names: string[]) => [...names.map((n) => ` FAIL  ${n}`), '', ` Test Files  1 failed (1)`, `      Tests  ${names.length} failed | 3 passed (4)`].join('\n');
  const cases: { name: string; before: GateVerdict; now: GateVerdict; expected: ReturnType<typeof compareWithBaseline> }[] = [
    {
      name: 'the module the phase builds was missing, now a test of it fails: changed, naming both',
      before: failing('t', "Error: Cannot find module './parser'\n    at require (node:internal)"),
      now: failing('t', vitest('parser.test.js > parses x')),
      expected: { kind: 'changed', before: ["Error: Cannot find module './parser'"], added: ['parser.test.js > parses x'] },
    },
    {
      name: 'the same failing tests, other timings and counts: same',
      before: failing('t', `${vitest('a.test.ts > one 12ms')}\n Duration  1.52s`),
      now: failing('t', `${vitest('a.test.ts > one 40ms')}\n Duration  3.01s`),
      expected: { kind: 'same' },
    },
    {
      name: 'fewer failing tests than before: same (nothing new fails)',
      before: failing('t', vitest('a > one', 'a > two')),
      now: failing('t', vitest('a > one')),
      expected: { kind: 'same' },
    },
    {
      name: 'one more failing test inside a failing suite: changed, naming it',
      before: failing('t', vitest('a > one')),
      now: failing('t', vitest('a > one', 'b > new')),
      expected: { kind: 'changed', before: ['a > one'], added: ['b > new'] },
    },
    {
      name: 'pytest: a new FAILED line',
      before: failing('t', 'FAILED tests/test_a.py::test_old - assert 1 == 2\n=== 1 failed, 3 passed in 0.12s ==='),
      now: failing('t', 'FAILED tests/test_a.py::test_old - assert 1 == 2\nFAILED tests/test_b.py::test_new - KeyError\n=== 2 failed, 2 passed in 0.20s ==='),
      expected: { kind: 'changed', before: ['tests/test_a.py::test_old'], added: ['tests/test_b.py::test_new'] },
    },
    {
      name: 'go test: the same failing test, other times: same',
      before: failing('t', '--- FAIL: TestParse (0.00s)\nFAIL\texample.com/m\t0.005s\nFAIL'),
      now: failing('t', '--- FAIL: TestParse (0.01s)\nFAIL\texample.com/m\t0.012s\nFAIL'),
      expected: { kind: 'same' },
    },
    {
      name: 'a build error with other line numbers only: same',
      before: failing('t', "src/a.ts(3,5): error TS2304: Cannot find name 'foo'."),
      now: failing('t', "src/a.ts(9,5): error TS2304: Cannot find name 'foo'."),
      expected: { kind: 'same' },
    },
    {
      name: 'a new error line in a legacy lint: changed',
      before: failing('t', 'src/a.ts:3:1 error no-unused-vars\n1 problem'),
      now: failing('t', 'src/a.ts:3:1 error no-unused-vars\nsrc/new.ts:1:1 error no-undef\n2 problems'),
      expected: { kind: 'changed', before: ['src/a.ts:3:1 error no-unused-vars'], added: ['src/new.ts:1:1 error no-undef'] },
    },
    {
      name: 'output that names nothing: compared line by line, the same: same',
      before: failing('t', 'one.txt is absent'),
      now: failing('t', 'one.txt is absent'),
      expected: { kind: 'same' },
    },
    {
      name: 'output that names nothing, a new line: changed',
      before: failing('t', 'checking\nno'),
      now: failing('t', 'checking\nwrong value 3'),
      expected: { kind: 'changed', before: ['checking', 'no'], added: ['wrong value 3'] },
    },
    {
      name: 'another exit status: changed, even with the same output',
      before: failing('t', 'no tests ran'),
      now: { ...failing('t', 'no tests ran'), exitCode: 2 },
      expected: { kind: 'changed', before: ['no tests ran'], added: [], exit: { before: 1, now: 2 } },
    },
    {
      name: 'recorded failures are used when the tail no longer shows them',
      before: { ...failing('t', '...'), failures: { by: 'tests', items: ['a > one', 'a > two'] } },
      now: { ...failing('t', '...'), failures: { by: 'tests', items: ['a > two'] } },
      expected: { kind: 'same' },
    },
    {
      name: 'a baseline from a journal without recorded failures is read from its tail',
      before: failing('t', ' FAIL  a > one'),
      now: { ...failing('t', '...'), failures: { by: 'tests', items: ['a > one', 'a > three'] } },
      expected: { kind: 'changed', before: ['a > one'], added: ['a > three'] },
    },
    {
      name: 'malformed recorded failures are ignored',
      before: { ...failing('t', 'same'), failures: { by: 'nonsense', items: 3 } as unknown as GateVerdict['failures'] },
      now: failing('t', 'same'),
      expected: { kind: 'same' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(compareWithBaseline(c.now, [c.before])).toEqual(c.expected);
    });
  }
});

describe('blockingFailures', () => {
  const split = { introduced: [failing('new')], inherited: [failing('old')] };
  it('block: inherited failures block too', () => {
    expect(blockingFailures(split, 'block')).toEqual({ blocking: [failing('new'), failing('old')], tolerated: [] });
  });
  it('warn: only introduced failures block; inherited ones are tolerated', () => {
    expect(blockingFailures(split, 'warn')).toEqual({ blocking: [failing('new')], tolerated: [failing('old')] });
  });
  it('warn with only inherited failures: nothing blocks', () => {
    expect(blockingFailures({ introduced: [], inherited: [failing('old')] }, 'warn').blocking).toEqual([]);
  });
});

describe('isInherited', () => {
  it('is true only for a gate that failed in the baseline with the same failures', () => {
    expect(isInherited(failing('a'), [failing('a')])).toBe(true);
    expect(isInherited(failing('a', 'new trouble'), [failing('a', 'old trouble')])).toBe(false);
    expect(isInherited(failing('a'), [run('a', true)])).toBe(false);
    expect(isInherited(failing('a'), undefined)).toBe(false);
  });
});
