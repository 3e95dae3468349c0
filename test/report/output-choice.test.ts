import { describe, expect, it } from 'vitest';
import { chooseReporters, isCI, unicodeEnabled, type OutputFlags } from '../../src/report/choose-reporters.js';
import { colorEnabled, createColors } from '../../src/report/color.js';

describe('colorEnabled', () => {
  it.each([
    { env: {}, tty: true, expected: true },
    { env: {}, tty: false, expected: false },
    { env: { NO_COLOR: '1' }, tty: true, expected: false },
    { env: { NO_COLOR: 'anything' }, tty: true, expected: false },
    { env: { NO_COLOR: '' }, tty: true, expected: true },
    { env: { FORCE_COLOR: '1' }, tty: false, expected: true },
    { env: { FORCE_COLOR: '' }, tty: false, expected: true },
    { env: { FORCE_COLOR: '3' }, tty: false, expected: true },
    { env: { FORCE_COLOR: 'true' }, tty: false, expected: true },
    { env: { FORCE_COLOR: '0' }, tty: true, expected: false },
    { env: { FORCE_COLOR: 'false' }, tty: true, expected: false },
    { env: { FORCE_COLOR: '1', NO_COLOR: '1' }, tty: false, expected: true },
    { env: { FORCE_COLOR: '0', NO_COLOR: '' }, tty: true, expected: false },
    { env: { TERM: 'dumb' }, tty: true, expected: false },
    { env: { TERM: 'dumb', FORCE_COLOR: '1' }, tty: true, expected: true },
  ])('$env on a TTY=$tty -> $expected', ({ env, tty, expected }) => {
    expect(colorEnabled(env, tty)).toBe(expected);
  });

  it('colours are SGR codes only when enabled', () => {
    expect(createColors(true).red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(createColors(false).red('x')).toBe('x');
    expect(createColors(true).bold('')).toBe('');
  });
});

describe('isCI and unicodeEnabled', () => {
  it.each([
    [{ CI: 'true' }, true], [{ CI: '1' }, true], [{ CI: 'woodpecker' }, true],
    [{ CI: 'false' }, false], [{ CI: 'FALSE' }, false], [{ CI: '0' }, false], [{ CI: '' }, false], [{}, false],
  ])('isCI(%j) -> %s', (env, expected) => {
    expect(isCI(env)).toBe(expected);
  });

  it.each([
    [{}, true], [{ LANG: 'en_US.UTF-8' }, true], [{ LC_ALL: 'C.utf8', LANG: 'C' }, true],
    [{ LANG: 'C' }, false], [{ LC_ALL: 'POSIX' }, false], [{ TERM: 'linux', LANG: 'en_US.UTF-8' }, false],
  ])('unicodeEnabled(%j) -> %s', (env, expected) => {
    expect(unicodeEnabled(env)).toBe(expected);
  });
});

describe('chooseReporters', () => {
  const cases: { name: string; flags: OutputFlags; env: Record<string, string>; tty: boolean; expected: Partial<ReturnType<typeof chooseReporters>> }[] = [
    { name: 'a terminal gets the live view', flags: {}, env: {}, tty: true, expected: { mode: 'live', color: true, githubActions: false, stepSummaryFile: undefined } },
    { name: 'a pipe gets plain lines', flags: {}, env: {}, tty: false, expected: { mode: 'plain', color: false } },
    { name: '--plain on a terminal: plain, still coloured', flags: { plain: true }, env: {}, tty: true, expected: { mode: 'plain', color: true } },
    { name: 'CI=true on a terminal: plain', flags: {}, env: { CI: 'true' }, tty: true, expected: { mode: 'plain' } },
    { name: 'CI=false on a terminal: live', flags: {}, env: { CI: 'false' }, tty: true, expected: { mode: 'live' } },
    { name: 'TERM=dumb: plain without colour', flags: {}, env: { TERM: 'dumb' }, tty: true, expected: { mode: 'plain', color: false } },
    { name: 'NO_COLOR keeps the live view, without colour', flags: {}, env: { NO_COLOR: '1' }, tty: true, expected: { mode: 'live', color: false } },
    { name: 'FORCE_COLOR colours a pipe', flags: {}, env: { FORCE_COLOR: '1' }, tty: false, expected: { mode: 'plain', color: true } },
    { name: '--json wins over everything', flags: { json: true, plain: true }, env: { FORCE_COLOR: '1' }, tty: true, expected: { mode: 'json', color: false, githubActions: false } },
    { name: '--verbose is passed on', flags: { verbose: true }, env: {}, tty: false, expected: { mode: 'plain', verbose: true } },
    {
      name: 'GitHub Actions: plain with groups and the step summary',
      flags: {}, env: { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_STEP_SUMMARY: '/tmp/summary.md' }, tty: false,
      expected: { mode: 'plain', githubActions: true, stepSummaryFile: '/tmp/summary.md' },
    },
    { name: 'GitHub Actions on a terminal is still plain', flags: {}, env: { GITHUB_ACTIONS: 'true' }, tty: true, expected: { mode: 'plain', githubActions: true, stepSummaryFile: undefined } },
    {
      name: 'GitHub Actions with --json: no annotations on stdout, the summary file still written',
      flags: { json: true }, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/tmp/s.md' }, tty: false,
      expected: { mode: 'json', githubActions: false, stepSummaryFile: '/tmp/s.md' },
    },
    { name: 'GITHUB_STEP_SUMMARY alone is not GitHub Actions', flags: {}, env: { GITHUB_STEP_SUMMARY: '/tmp/s.md' }, tty: false, expected: { githubActions: false, stepSummaryFile: undefined } },
  ];
  it.each(cases)('$name', ({ flags, env, tty, expected }) => {
    expect(chooseReporters({ flags, env, isTTY: tty })).toMatchObject(expected);
  });
});
