import { describe, expect, it } from 'vitest';
import { summarizeToolUse } from '../../src/agent/index.js';

describe('summarizeToolUse', () => {
  const cwd = '/work/project';
  it.each([
    ['Bash', { command: 'npm test', description: 'Run the tests' }, 'Bash: npm test'],
    ['Bash', { command: 'echo a\n  && echo b' }, 'Bash: echo a && echo b'],
    ['Edit', { file_path: '/work/project/src/x.ts', old_string: 'a', new_string: 'b' }, 'Edit: src/x.ts'],
    ['Write', { file_path: '/elsewhere/notes.md', content: '...' }, 'Write: /elsewhere/notes.md'],
    ['Read', { file_path: 'relative/a.ts' }, 'Read: relative/a.ts'],
    ['NotebookEdit', { notebook_path: '/work/project/n.ipynb' }, 'NotebookEdit: n.ipynb'],
    ['Grep', { pattern: 'TODO', path: '/work/project/src' }, 'Grep: TODO in src'],
    ['Glob', { pattern: '**/*.ts' }, 'Glob: **/*.ts'],
    ['WebFetch', { url: 'https://example.com', prompt: 'read' }, 'WebFetch: https://example.com'],
    ['Task', { description: 'Find the bug', prompt: 'long...' }, 'Task: Find the bug'],
    ['TodoWrite', { todos: [{}, {}, {}] }, 'TodoWrite: 3 todos'],
    ['mcp__db__query', { sql: 'select 1' }, 'mcp__db__query: select 1'],
    ['Bash', {}, 'Bash'],
    ['Weird', 'not an object', 'Weird'],
    ['Bash', { command: 'x'.repeat(500) }, `Bash: ${'x'.repeat(117)}...`],
  ])('%s %j -> %s', (name, input, expected) => {
    expect(summarizeToolUse(name, input, cwd)).toBe(expected);
  });
});
