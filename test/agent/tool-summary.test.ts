import { describe, expect, it } from 'vitest';
import { summarizeToolUse } from '../../src/agent/index.js';
import { createRedactor } from '../../src/redact/index.js';

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

describe('summarizeToolUse redacts the whole detail before it cuts it', () => {
  const redact = createRedactor({ DEPLOY_TOKEN: 'env-secret-value-0123456789' });
  const GITHUB = 'ghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u';
  // The cut keeps 117 characters of the detail: each secret starts so that only its first 12 to
  // 16 would be left, too few for a pattern (or the env value) to be recognised once cut.
  it.each([
    ['a github token', `echo ${'a'.repeat(100)} ${GITHUB}`, GITHUB.slice(0, 11)],
    ['an env value', `echo ${'a'.repeat(100)} env-secret-value-0123456789`, 'env-secret-'],
    ['a bearer header', `echo ${'a'.repeat(84)} Authorization: Bearer abcdEFGH12345678`, 'Bearer abcdE'],
  ])('%s on the cut', (_name, command, visibleIfCutFirst) => {
    const summary = summarizeToolUse('Bash', { command }, undefined, redact);
    expect(summary.length).toBeLessThanOrEqual('Bash: '.length + 120);
    expect(summary).not.toContain(visibleIfCutFirst);
    // What a cut before redaction would have shown:
    expect(summarizeToolUse('Bash', { command }, undefined)).toContain(visibleIfCutFirst);
  });

  it('a multi-line command is redacted before it is folded: the tail of a private key is known by its lines', () => {
    const body = ['wQEhgWLIFxJW9app8dY+3xZzMbnqr2YtbgtcUsSh5lm/eM9IjlWBl132zN4t8+wV', 'xx2hDnk44CJxqviOstSP5SVG/lrtLgRWq2D8M3dZE9N2CLDHt+7jzJYudEVWbjsm'];
    const command = `printf '%s\\n' '$ tail -3 id_rsa\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----'`;
    const summary = summarizeToolUse('Bash', { command }, undefined, redact);
    expect(summary).toContain('$ tail -3 id_rsa [REDACTED]');
    expect(summary).not.toContain(body[0]?.slice(0, 10));
  });

  it('a summary without a secret reads as before', () => {
    expect(summarizeToolUse('Bash', { command: 'npm test' }, undefined, redact)).toBe('Bash: npm test');
  });
});
