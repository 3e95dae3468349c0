import { describe, expect, it } from 'vitest';
import { bashRuleMatches, bashVerdict, commandParts, editVerdict, refusedParts, type PermissionSettings } from '../../src/permissions/rule-check.js';
import { describePart } from '../../src/permissions/shell-parts.js';

const settings = (over: Partial<PermissionSettings>): PermissionSettings => ({ mode: undefined, allowedTools: [], disallowedTools: [], skipsChecks: false, ...over });

describe('bashRuleMatches', () => {
  it.each([
    ['npm test:*', 'npm test', true],
    ['npm test:*', 'npm test -- --watch=false', true],
    ['npm test:*', 'npm testing', false],
    ['npm run:*', 'npm run lint', true],
    ['git *', 'git status', true],
    ['git *', 'git', true],
    ['git *', 'gitk', false],
    ['npx tsc --noEmit', 'npx tsc --noEmit', true],
    ['npx tsc --noEmit', 'npx tsc', false],
    ['*', 'anything at all', true],
  ])('Bash(%s) on `%s` -> %s', (specifier, command, matches) => {
    expect(bashRuleMatches(specifier, command)).toBe(matches);
  });
});

describe('commandParts', () => {
  it('splits a command line where claude checks each part', () => {
    expect(commandParts('npm run build && npm test; echo ok | tee log || true')).toEqual(['npm run build', 'npm test', 'echo ok', 'tee log', 'true']);
  });

  it('keeps quoted operators and redirections with their command', () => {
    expect(commandParts(`grep -q "a && b" f; echo 'x|y' & npm test 2>&1 | tail -5`)).toEqual(['grep -q "a && b" f', "echo 'x|y'", 'npm test 2>&1', 'tail -5']);
    expect(commandParts('make >out.txt 2>&1 &>all.log\nnpm test')).toEqual(['make >out.txt 2>&1 &>all.log', 'npm test']);
  });
});

describe('describePart', () => {
  it.each([
    ['npm test 2>&1', ['npm', 'test'], [], false],
    ['npm test > test.log', ['npm', 'test'], ['test.log'], false],
    ['make >out.txt 2>>err.log </dev/null', ['make'], ['out.txt', 'err.log'], false],
    ['npm test >/dev/null', ['npm', 'test'], [], false],
    ["grep -q 'a b' \"c d\"", ['grep', '-q', 'a b', 'c d'], [], false],
    ['test -z "$(git status --porcelain)"', ['test', '-z', '$(git status --porcelain)'], [], true],
    ["echo '$(not run)'", ['echo', '$(not run)'], [], false],
    ['echo `date`', ['echo', '`date`'], [], true],
  ])('%s', (text, words, writes, substitution) => {
    expect(describePart(text)).toEqual({ text, words, writes, substitution });
  });
});

describe('bashVerdict', () => {
  it.each<[string, Partial<PermissionSettings>, string, string]>([
    ['no settings refuse', {}, 'npm test', 'refused'],
    ['read-only commands need no rule', {}, 'true', 'allowed'],
    ['a pipeline of read-only commands needs no rule', { mode: 'default' }, 'cat f.txt | grep hi | wc -l', 'allowed'],
    ['exit is not read-only', { mode: 'default' }, 'test -d . || exit 1', 'refused'],
    ['git status is read-only; git checkout is not', {}, 'git status && git checkout -b x', 'refused'],
    ['git branch lists; git branch -D deletes', {}, 'git branch -a', 'allowed'],
    ['git branch -D needs a rule', {}, 'git branch -D old', 'refused'],
    ['sed -n reads', {}, 'sed -n 1p f.txt', 'allowed'],
    ['sed -i writes: refused in default mode', { mode: 'default' }, 'sed -i s/a/b/ f.txt', 'refused'],
    ['sed -i writes: acceptEdits runs it', { mode: 'acceptEdits' }, 'sed -i s/a/b/ f.txt', 'allowed'],
    ['file commands run under acceptEdits', { mode: 'acceptEdits' }, 'mkdir -p out && touch out/x && rm out/x', 'allowed'],
    ['file commands need a rule in default mode', { mode: 'default' }, 'mkdir -p out', 'refused'],
    ['find -delete: no Bash(find:*) rule allows it', { allowedTools: ['Bash(find:*)'] }, 'find . -name x -delete', 'refused'],
    ['an output file: refused in default mode even with a rule', { mode: 'default', allowedTools: ['Bash(npm test:*)'] }, 'npm test > test.log', 'refused'],
    ['an output file: fine under acceptEdits with a rule', { mode: 'acceptEdits', allowedTools: ['Bash(npm test:*)'] }, 'npm test > test.log', 'allowed'],
    ['/dev/null and 2>&1 are no output files', { mode: 'default', allowedTools: ['Bash(npm test:*)'] }, 'npm test >/dev/null 2>&1', 'allowed'],
    ['a substitution: refused under a narrower rule', { allowedTools: ['Bash(test:*)', 'Bash(git status:*)'] }, 'test -z "$(git status --porcelain)"', 'refused'],
    ['a substitution: a bare Bash rule allows it', { allowedTools: ['Bash'] }, 'test -z "$(git status --porcelain)"', 'allowed'],
    ['an allowed tool piped into a read-only command', { mode: 'acceptEdits', allowedTools: ['Bash(npm test:*)'] }, 'npm test 2>&1 | tail -5', 'allowed'],
    ['a prefix rule allows', { allowedTools: ['Bash(npm test:*)'] }, 'npm test', 'allowed'],
    ['every part must be allowed', { allowedTools: ['Bash(npm test:*)'] }, 'npm run build && npm test', 'refused'],
    ['bare Bash allows all', { allowedTools: ['Bash'] }, 'make check', 'allowed'],
    ['acceptEdits does not allow commands', { mode: 'acceptEdits' }, 'npm test', 'refused'],
    ['bypassPermissions allows', { mode: 'bypassPermissions' }, 'npm test', 'allowed'],
    ['--dangerously-skip-permissions allows', { skipsChecks: true }, 'npm test', 'allowed'],
    ['a deny rule wins', { mode: 'bypassPermissions', disallowedTools: ['Bash(npm test:*)'] }, 'npm test', 'refused'],
    ['auto mode is not known ahead', { mode: 'auto' }, 'npm test', 'unknown'],
  ])('%s', (_name, over, command, verdict) => {
    expect(bashVerdict(settings(over), command)).toBe(verdict);
  });
});

describe('refusedParts', () => {
  it('names the rule for each refused part; read-only parts are not named', () => {
    expect(refusedParts(settings({ mode: 'default' }), 'npm run build && make check | tail -3 && npx tsc --noEmit')).toEqual([
      { command: 'npm run build', allowWith: 'allowed_tools "Bash(npm run:*)"' },
      { command: 'make check', allowWith: 'allowed_tools "Bash(make check:*)"' },
      { command: 'npx tsc --noEmit', allowWith: 'allowed_tools "Bash(npx tsc:*)"' },
    ]);
  });

  it('an output file in default mode needs acceptEdits as well as the rule', () => {
    expect(refusedParts(settings({ mode: 'default' }), 'node build.js > out.txt')).toEqual([
      { command: 'node build.js > out.txt', allowWith: 'allowed_tools "Bash(node:*)" and permission_mode acceptEdits (it writes out.txt)' },
    ]);
  });
});

describe('editVerdict', () => {
  it.each<[string, Partial<PermissionSettings>, string]>([
    ['default refuses', { mode: 'default' }, 'refused'],
    ['unset refuses', {}, 'refused'],
    ['acceptEdits allows', { mode: 'acceptEdits' }, 'allowed'],
    ['plan refuses', { mode: 'plan', allowedTools: ['Edit'] }, 'refused'],
    ['an Edit rule allows', { allowedTools: ['Edit', 'Write'] }, 'allowed'],
    ['a bare deny wins', { mode: 'acceptEdits', disallowedTools: ['Write'] }, 'refused'],
    ['bypass allows', { skipsChecks: true }, 'allowed'],
  ])('%s', (_name, over, verdict) => {
    expect(editVerdict(settings(over))).toBe(verdict);
  });
});
