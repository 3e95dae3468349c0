import { describe, expect, it } from 'vitest';
import { buildClaudeArgs, CLAUDE_STREAM_FLAGS, DEBUSSY_TOOL_RULES, permissionArgs } from '../../../src/agent/index.js';

describe('permissionArgs', () => {
  it.each<[string, Parameters<typeof permissionArgs>[0], string[]]>([
    ['nothing set: only debussy\'s own calls', { allowedTools: [], disallowedTools: [] }, ['--allowedTools', 'Bash(debussy done:*)', '--allowedTools', 'Bash(debussy progress:*)']],
    [
      'a mode, rules with spaces, a deny rule; one flag per rule',
      { mode: 'acceptEdits', allowedTools: ['Bash(npm run test:*)', 'Edit'], disallowedTools: ['Bash(git push:*)'] },
      ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(npm run test:*)', '--allowedTools', 'Edit', '--allowedTools', 'Bash(debussy done:*)', '--allowedTools', 'Bash(debussy progress:*)', '--disallowedTools', 'Bash(git push:*)'],
    ],
    ['a rule the user already lists is not repeated', { allowedTools: ['Bash(debussy done:*)'], disallowedTools: [] }, ['--allowedTools', 'Bash(debussy done:*)', '--allowedTools', 'Bash(debussy progress:*)']],
  ])('%s', (_name, permissions, args) => {
    expect(permissionArgs(permissions)).toEqual(args);
  });

  it('always allows both agent commands, whatever the mode', () => {
    for (const mode of ['default', 'plan', 'dontAsk']) {
      const args = permissionArgs({ mode, allowedTools: [], disallowedTools: [] });
      for (const rule of DEBUSSY_TOOL_RULES) expect(args).toContain(rule);
    }
  });
});

describe('buildClaudeArgs', () => {
  it('puts the permission flags before the user\'s claude_args, so theirs come last', () => {
    const args = buildClaudeArgs({ model: 'sonnet', extraArgs: ['--max-turns', '5'], permissions: { mode: 'default', allowedTools: [], disallowedTools: [] } });
    expect(args.slice(0, CLAUDE_STREAM_FLAGS.length)).toEqual([...CLAUDE_STREAM_FLAGS]);
    expect(args.indexOf('--permission-mode')).toBeLessThan(args.indexOf('--max-turns'));
    expect(args.slice(-2)).toEqual(['--max-turns', '5']);
  });

  it("passes what the budget leaves as claude's own --max-budget-usd, and nothing without a budget", () => {
    const args = buildClaudeArgs({ extraArgs: [], maxBudgetUsd: '0.1000' });
    expect(args[args.indexOf('--max-budget-usd') + 1]).toBe('0.1000');
    expect(buildClaudeArgs({ extraArgs: [] })).not.toContain('--max-budget-usd');
  });
});
