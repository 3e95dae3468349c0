import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffSummary, formatDiffSummary, headSha } from '../../src/git/index.js';
import { git, makeRepo, writeFiles, type Fixture } from './git-fixture.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('formatDiffSummary', () => {
  it.each([
    { name: 'no changes', changes: [], maxLines: 10, expected: 'no changes' },
    {
      name: 'sorted, padded, totals',
      changes: [
        { path: 'src/b.ts', status: 'M', added: 3, deleted: 1 },
        { path: 'a.md', status: 'A', added: 10, deleted: 0 },
        { path: 'old.txt', status: 'D', added: 0, deleted: 4 },
        { path: 'logo.png', status: 'A' },
      ],
      maxLines: 10,
      expected: [
        'A a.md     | +10',
        'A logo.png | binary',
        'D old.txt  | -4',
        'M src/b.ts | +3 -1',
        '4 files changed, 13 insertions(+), 5 deletions(-)',
      ].join('\n'),
    },
    {
      name: 'capped, totals still cover every file',
      changes: [1, 2, 3, 4, 5].map((n) => ({ path: `f${n}`, status: 'A', added: n, deleted: 0 })),
      maxLines: 4,
      expected: ['A f1 | +1', 'A f2 | +2', '… and 3 more files', '5 files changed, 15 insertions(+), 0 deletions(-)'].join('\n'),
    },
    {
      name: 'exactly at the cap is not cut',
      changes: [1, 2].map((n) => ({ path: `f${n}`, status: 'M', added: 0, deleted: 0 })),
      maxLines: 3,
      expected: ['M f1 | +0', 'M f2 | +0', '2 files changed, 0 insertions(+), 0 deletions(-)'].join('\n'),
    },
  ])('$name', ({ changes, maxLines, expected }) => {
    expect(formatDiffSummary(changes, maxLines)).toBe(expected);
  });
});

describe('diffSummary', () => {
  it('summarises committed, uncommitted and untracked changes since the base', async () => {
    fixture = await makeRepo({ files: { 'edit.txt': 'a\nb\nc\n', 'gone.txt': '1\n2\n' } });
    const { root } = fixture;
    const base = await headSha(root);
    await writeFiles(root, { 'committed.txt': 'x\ny\n' });
    await git(root, 'add', '-A');
    await git(root, 'commit', '--quiet', '-m', 'agent');
    await writeFiles(root, { 'edit.txt': 'a\nB\nc\nd\n', 'new/untracked.ts': 'one\ntwo\nthree', 'blob.bin': Buffer.from([1, 0, 2, 0]) });
    await rm(join(root, 'gone.txt'));

    const summary = await diffSummary(root, base);

    expect(summary.split('\n')).toEqual([
      'A blob.bin         | binary',
      'A committed.txt    | +2',
      'M edit.txt         | +2 -1',
      'D gone.txt         | -2',
      'A new/untracked.ts | +3',
      '5 files changed, 7 insertions(+), 3 deletions(-)',
    ]);
  });

  it('stays within maxLines and works without a base', async () => {
    fixture = await makeRepo({ commit: false, files: Object.fromEntries([...Array(12).keys()].map((n) => [`file${String(n).padStart(2, '0')}.txt`, 'line\n'])) });

    const summary = await diffSummary(fixture.root, undefined, 5);

    expect(summary.split('\n')).toHaveLength(5);
    expect(summary).toContain('… and 9 more files');
    expect(summary).toMatch(/12 files changed, 12 insertions/);
  });
});
