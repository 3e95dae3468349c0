import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFilesSince, commitsSince, headSha } from '../../src/git/index.js';
import { git, writeFiles, repo } from './git-fixture.js';

describe('changedFilesSince', () => {
  it('covers files committed since the base, uncommitted, staged, deleted and untracked', async () => {
    const { root } = await repo({
      files: { '.gitignore': '*.log\n', 'same.txt': 's\n', 'committed.txt': '1\n', 'edited.txt': '1\n', 'doomed.txt': '1\n', 'staged.txt': '1\n' },
    });
    const base = await headSha(root);
    await writeFiles(root, { 'committed.txt': '2\n', 'added-in-commit.txt': 'a\n' });
    await git(root, 'add', '-A');
    await git(root, 'commit', '--quiet', '-m', 'agent work');
    await writeFiles(root, { 'edited.txt': '2\n', 'staged.txt': '2\n', 'brand/new.txt': 'n', 'noise.log': 'ignored', '.debussy/runs/r/x.ndjson': '{}' });
    await git(root, 'add', 'staged.txt');
    await rm(join(root, 'doomed.txt'));

    expect(await changedFilesSince(root, base)).toEqual([
      'added-in-commit.txt',
      'brand/new.txt',
      'committed.txt',
      'doomed.txt',
      'edited.txt',
      'staged.txt',
    ]);
  });

  it('is empty when nothing changed since the base', async () => {
    const { root } = await repo();
    expect(await changedFilesSince(root, await headSha(root))).toEqual([]);
  });

  it('does not count a file changed and changed back', async () => {
    const { root } = await repo({ files: { 'a.txt': 'a\n' } });
    const base = await headSha(root);
    await writeFiles(root, { 'a.txt': 'b\n' });
    await git(root, 'commit', '--quiet', '-am', 'change');
    await writeFiles(root, { 'a.txt': 'a\n' });
    expect(await changedFilesSince(root, base)).toEqual([]);
  });

  it('with no base lists every tracked and untracked file, ignored ones left out', async () => {
    const { root } = await repo({ commit: false, files: { '.gitignore': 'dist/\n', 'a.txt': 'a', 'dist/out.js': 'o' } });
    await git(root, 'add', 'a.txt');
    await writeFiles(root, { 'b/c.txt': 'c' });
    expect(await changedFilesSince(root, undefined)).toEqual(['.gitignore', 'a.txt', 'b/c.txt']);
  });
});

describe('commitsSince', () => {
  it('lists the commits made after the base, oldest first, with their bodies and dates', async () => {
    const { root } = await repo();
    const base = (await headSha(root)) ?? '';
    await git(root, 'commit', '--quiet', '--allow-empty', '-m', 'first\tafter\n\nbody text');
    await git(root, 'commit', '--quiet', '--allow-empty', '-m', 'second after');
    const head = (await headSha(root)) ?? '';

    const commits = await commitsSince(root, base);

    expect(commits.map((commit) => commit.subject)).toEqual(['first\tafter', 'second after']);
    // The body (what a worker taking a phase over reads its checkpoint from) and the author's date.
    expect(commits.map((commit) => commit.body.trim())).toEqual(['body text', '']);
    expect(Date.parse(commits[0]?.date ?? '')).not.toBeNaN();
    expect(commits[1]?.sha).toBe(head);
    expect(await commitsSince(root, head)).toEqual([]);
  });

  it('is empty on a branch with no commit', async () => {
    const { root } = await repo({ commit: false });
    expect(await commitsSince(root, '4b825dc642cb6eb9a060e54bf8d69288fbee4904')).toEqual([]);
  });
});
