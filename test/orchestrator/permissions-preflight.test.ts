import { describe, expect, it } from 'vitest';
import { defaultConfig, type DebussyConfig } from '../../src/config/index.js';
import { permissionWarning } from '../../src/agent/claude/claude-permissions.js';

const config = (over: Partial<DebussyConfig>): DebussyConfig => ({ ...defaultConfig(), ...over });

describe('permissionWarning (the pre-run check)', () => {
  it.each<[string, Partial<DebussyConfig>, string[], string | undefined]>([
    [
      'claude defaults refuse edits and the gates that are not read-only, each named with its rule', {}, ['npm test', 'npm run lint', 'true'],
      'claude would refuse the agent\'s file edits (Write, Edit; permission_mode acceptEdits allows them) and gate commands `npm test` (allowed_tools "Bash(npm test:*)"), `npm run lint` (allowed_tools "Bash(npm run:*)") (permission_mode unset, 0 allowed_tools rule(s))',
    ],
    ['acceptEdits without rules refuses the gates only', { permission_mode: 'acceptEdits' }, ['npm test'], 'claude would refuse the agent\'s gate command `npm test` (allowed_tools "Bash(npm test:*)") (permission_mode acceptEdits'],
    ['read-only gates claude runs without a rule: nothing to say', { permission_mode: 'default', allowed_tools: ['Edit', 'Write'] }, ['true', 'test -f src/x.ts', 'ls src | wc -l', 'git diff --stat && echo ok', "grep -q 'a && b' f.txt"], undefined],
    [
      "the init choice (acceptEdits, npm rules): a pipeline of an allowed tool and read-only commands is fine", { permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)', 'Bash(npm run:*)'] },
      ['npm test 2>&1 | tail -20', 'npm run build && test -f dist/index.js', 'npm test > test.log'], undefined,
    ],
    ['the part of a pipeline that needs a rule is named', { permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)'] }, ['npm test | uniq'], 'gate command `npm test | uniq` (`uniq`: allowed_tools "Bash(uniq:*)")'],
    ['an output file in default mode needs acceptEdits', { permission_mode: 'default', allowed_tools: ['Bash(npm test:*)', 'Edit'] }, ['npm test > test.log'], 'gate command `npm test > test.log` (permission_mode acceptEdits (it writes test.log))'],
    ['a command substitution needs a bare Bash rule', { permission_mode: 'acceptEdits' }, ['test -z "$(git status --porcelain)"'], 'allowed_tools "Bash" (every command) or permission_mode bypassPermissions; no narrower rule allows it'],
    ['acceptEdits with a matching rule: nothing to say', { permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)'] }, ['npm test'], undefined],
    ['bypassPermissions: nothing to say', { permission_mode: 'bypassPermissions' }, ['npm test', 'make'], undefined],
    ['--dangerously-skip-permissions in claude_args: nothing to say', { claude_args: ['--dangerously-skip-permissions'] }, ['npm test'], undefined],
    ['a deny rule on Bash refuses debussy done too', { permission_mode: 'bypassPermissions', disallowed_tools: ['Bash'] }, [], "claude would refuse the agent's `debussy done` calls"],
    ['auto mode cannot be judged ahead', { permission_mode: 'auto' }, ['npm test'], undefined],
    ['many gates are cut short', { permission_mode: 'acceptEdits' }, ['a', 'b', 'c', 'd', 'e'], 'gate commands `a` (allowed_tools "Bash(a:*)"), `b` (allowed_tools "Bash(b:*)"), `c` (allowed_tools "Bash(c:*)") and 2 more'],
    ['a deny rule is named', { permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)'], disallowed_tools: ['Bash(npm test:*)'] }, ['npm test'], 'gate command `npm test` (a disallowed_tools rule refuses `npm test`)'],
  ])('%s', (_name, over, gates, expected) => {
    const warning = permissionWarning(config(over), gates);
    if (expected === undefined) expect(warning).toBeUndefined();
    else {
      expect(warning).toContain(expected);
      expect(warning).toContain('docs/permissions.md');
      expect(warning?.includes('\n')).toBe(false);
    }
  });
});
