import { describe, expect, it } from 'vitest';
import { bashRuleMatches, bashVerdict, commandParts, editVerdict, type PermissionSettings } from '../../src/permissions/rule-check.js';

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
});

describe('bashVerdict', () => {
  it.each<[string, Partial<PermissionSettings>, string, string]>([
    ['no settings refuse', {}, 'npm test', 'refused'],
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
