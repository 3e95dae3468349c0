import { describe, expect, it } from 'vitest';
import { defaultConfig, type DebussyConfig } from '../../src/config/index.js';
import { permissionWarning } from '../../src/agent/claude/claude-permissions.js';

const config = (over: Partial<DebussyConfig>): DebussyConfig => ({ ...defaultConfig(), ...over });

describe('permissionWarning (the pre-run check)', () => {
  it.each<[string, Partial<DebussyConfig>, string[], string | undefined]>([
    ['claude defaults refuse edits and every gate', {}, ['npm test', 'npm run lint'], "claude would refuse the agent's file edits (Write, Edit) and gate commands `npm test`, `npm run lint` (permission_mode unset, 0 allowed_tools rule(s))"],
    ['acceptEdits without rules refuses the gates only', { permission_mode: 'acceptEdits' }, ['npm test'], "claude would refuse the agent's gate command `npm test` (permission_mode acceptEdits"],
    ['acceptEdits with a matching rule: nothing to say', { permission_mode: 'acceptEdits', allowed_tools: ['Bash(npm test:*)'] }, ['npm test'], undefined],
    ['bypassPermissions: nothing to say', { permission_mode: 'bypassPermissions' }, ['npm test', 'make'], undefined],
    ['--dangerously-skip-permissions in claude_args: nothing to say', { claude_args: ['--dangerously-skip-permissions'] }, ['npm test'], undefined],
    ['a deny rule on Bash refuses debussy done too', { permission_mode: 'bypassPermissions', disallowed_tools: ['Bash'] }, [], "claude would refuse the agent's `debussy done` calls"],
    ['auto mode cannot be judged ahead', { permission_mode: 'auto' }, ['npm test'], undefined],
    ['many gates are cut short', { permission_mode: 'acceptEdits' }, ['a', 'b', 'c', 'd', 'e'], 'gate commands `a`, `b`, `c` and 2 more'],
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
