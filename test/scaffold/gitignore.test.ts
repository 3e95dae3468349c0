import { describe, expect, it } from 'vitest';
import { DEBUSSY_RUN_DATA_PATHS } from '../../src/git/run-data.js';
import { addGitignoreEntries, GITIGNORE_ENTRIES } from '../../src/scaffold/index.js';

const HEADER = '# debussy run data (journals, session logs, the run lock)';

describe('addGitignoreEntries', () => {
  it('ignores exactly the run data the git module never commits', () => {
    const strip = (entry: string) => entry.replace(/\/$/, '');
    expect(GITIGNORE_ENTRIES.map(strip).sort()).toEqual([...DEBUSSY_RUN_DATA_PATHS].sort());
  });

  it.each([
    { name: 'no file yet', existing: undefined, text: `${HEADER}\n${GITIGNORE_ENTRIES.join('\n')}\n`, added: [...GITIGNORE_ENTRIES] },
    { name: 'an empty file', existing: '', text: `${HEADER}\n${GITIGNORE_ENTRIES.join('\n')}\n`, added: [...GITIGNORE_ENTRIES] },
    {
      name: 'a file ending in a newline gets a blank line first',
      existing: 'node_modules/\n',
      text: `node_modules/\n\n${HEADER}\n${GITIGNORE_ENTRIES.join('\n')}\n`,
      added: [...GITIGNORE_ENTRIES],
    },
    {
      name: 'a file without a final newline',
      existing: 'dist',
      text: `dist\n\n${HEADER}\n${GITIGNORE_ENTRIES.join('\n')}\n`,
      added: [...GITIGNORE_ENTRIES],
    },
    {
      name: 'entries already there in another spelling are not repeated',
      existing: 'dist/\n/.debussy/runs\n.debussy/run.lock/\n',
      text: `dist/\n/.debussy/runs\n.debussy/run.lock/\n\n${HEADER}\n.debussy/project.ndjson\n`,
      added: ['.debussy/project.ndjson'],
    },
    {
      name: 'everything there: unchanged',
      existing: `a\n${GITIGNORE_ENTRIES.join('\n')}\nb\n`,
      text: `a\n${GITIGNORE_ENTRIES.join('\n')}\nb\n`,
      added: [],
    },
  ])('$name', ({ existing, text, added }) => {
    expect(addGitignoreEntries(existing)).toEqual({ text, added });
  });

  it('is idempotent: a second pass adds nothing', () => {
    const once = addGitignoreEntries('coverage/\r\n').text;
    expect(addGitignoreEntries(once)).toEqual({ text: once, added: [] });
  });
});
