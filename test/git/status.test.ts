import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors/index.js';
import { gitTopLevel, hasTrackedChanges, headSha, isGitRepo, parsePorcelainV1, workingTreeStatus } from '../../src/git/index.js';
import { git, writeFiles, repo } from './git-fixture.js';

describe('parsePorcelainV1', () => {
  it.each([
    { name: 'empty', output: '', expected: { trackedChanges: [], untracked: [], staged: [], clean: true } },
    { name: 'modified in work tree', output: ' M a.ts\0', expected: { trackedChanges: ['a.ts'], untracked: [], staged: [], clean: false } },
    { name: 'deleted, unstaged', output: ' D a.ts\0', expected: { trackedChanges: ['a.ts'], untracked: [], staged: [], clean: false } },
    { name: 'staged and modified again', output: 'MM a.ts\0', expected: { trackedChanges: ['a.ts'], untracked: [], staged: ['a.ts'], clean: false } },
    { name: 'new file staged', output: 'A  n.ts\0', expected: { trackedChanges: ['n.ts'], untracked: [], staged: ['n.ts'], clean: false } },
    { name: 'untracked', output: '?? x y.ts\0', expected: { trackedChanges: [], untracked: ['x y.ts'], staged: [], clean: false } },
    { name: 'ignored', output: '!! build/\0', expected: { trackedChanges: [], untracked: [], staged: [], clean: true } },
    { name: 'branch header skipped', output: '## main...origin/main [ahead 1]\0 M a.ts\0', expected: { trackedChanges: ['a.ts'], untracked: [], staged: [], clean: false } },
    {
      name: 'rename lists both paths',
      output: 'R  new.ts\0old.ts\0?? u\0',
      expected: { trackedChanges: ['new.ts', 'old.ts'], untracked: ['u'], staged: ['new.ts', 'old.ts'], clean: false },
    },
    { name: 'copy keeps its source out', output: 'C  copy.ts\0src.ts\0', expected: { trackedChanges: ['copy.ts'], untracked: [], staged: ['copy.ts'], clean: false } },
    { name: 'unmerged is a change, not staged', output: 'UU c.ts\0AA d.ts\0', expected: { trackedChanges: ['c.ts', 'd.ts'], untracked: [], staged: [], clean: false } },
    { name: 'newline in a path', output: '?? a\nb\0', expected: { trackedChanges: [], untracked: ['a\nb'], staged: [], clean: false } },
  ])('$name', ({ output, expected }) => {
    expect(parsePorcelainV1(output)).toEqual(expected);
  });
});

describe('workingTreeStatus', () => {
  it('sorts changes into tracked, staged and untracked, each file of a new directory listed', async () => {
    const { root } = await repo({ files: { 'mod.txt': '1\n', 'del.txt': '1\n', 'stage.txt': '1\n' } });
    await writeFiles(root, { 'mod.txt': '2\n', 'stage.txt': '2\n', 'new dir/naïve one.txt': 'x', 'new dir/b.txt': 'y' });
    await rm(join(root, 'del.txt'));
    await git(root, 'add', 'stage.txt');

    const status = await workingTreeStatus(root);

    expect(status.trackedChanges.sort()).toEqual(['del.txt', 'mod.txt', 'stage.txt']);
    expect(status.staged).toEqual(['stage.txt']);
    expect(status.untracked.sort()).toEqual(['new dir/b.txt', 'new dir/naïve one.txt']);
    expect(status.clean).toBe(false);
  });

  it('is clean on a fresh commit and ignores ignored files and debussy run data', async () => {
    const { root } = await repo({ files: { '.gitignore': '*.log\n' } });
    expect(await workingTreeStatus(root)).toEqual({ trackedChanges: [], untracked: [], staged: [], clean: true });

    await writeFiles(root, { 'x.log': 'l', '.debussy/runs/r/journal.ndjson': '{}', '.debussy/run.lock': '1', '.debussy/project.ndjson': '{}' });
    expect((await workingTreeStatus(root)).clean).toBe(true);

    await writeFiles(root, { '.debussy/config.yaml': 'a: 1\n' });
    expect((await workingTreeStatus(root)).untracked).toEqual(['.debussy/config.yaml']);
  });

  it('gives paths relative to a sub-directory root and only under it', async () => {
    const { root } = await repo({ files: { 'pkg/a.txt': '1\n', 'other.txt': '1\n' } });
    await writeFiles(root, { 'pkg/a.txt': '2\n', 'pkg/lib/new.ts': 'n', 'other.txt': '2\n' });

    const status = await workingTreeStatus(join(root, 'pkg'));

    expect(status).toEqual({ trackedChanges: ['a.txt'], untracked: ['lib/new.ts'], staged: [], clean: false });
  });

  it('works in a repository with no commit yet', async () => {
    const { root } = await repo({ commit: false, files: { 'a.txt': 'a' } });
    expect(await workingTreeStatus(root)).toEqual({ trackedChanges: [], untracked: ['a.txt'], staged: [], clean: false });
  });
});

describe('hasTrackedChanges', () => {
  it('ignores untracked files', async () => {
    const { root } = await repo();
    await writeFiles(root, { 'new.txt': 'n', 'dir/more.txt': 'm' });
    expect(await hasTrackedChanges(root)).toBe(false);
  });

  it.each([
    { name: 'modified', change: (root: string) => writeFiles(root, { 'README.md': 'changed\n' }) },
    { name: 'deleted', change: (root: string) => rm(join(root, 'README.md')) },
    {
      name: 'new file staged',
      change: async (root: string) => {
        await writeFiles(root, { 'new.txt': 'n' });
        await git(root, 'add', 'new.txt');
      },
    },
  ])('sees a $name tracked file', async ({ change }) => {
    const { root } = await repo();
    expect(await hasTrackedChanges(root)).toBe(false);
    await change(root);
    expect(await hasTrackedChanges(root)).toBe(true);
  });
});

describe('repository queries', () => {
  it('tell a repository from a plain directory', async () => {
    const { root, outer } = await repo();
    expect(await isGitRepo(root)).toBe(true);
    expect(await isGitRepo(join(root, '.git'))).toBe(false);
    expect(await isGitRepo(outer)).toBe(false);
    expect(await isGitRepo(join(outer, 'missing'))).toBe(false);
    expect(await gitTopLevel(root)).toBe(root);
    await writeFiles(root, { 'deep/er/file': '' });
    expect(await gitTopLevel(join(root, 'deep/er'))).toBe(root);
    expect(await gitTopLevel(outer)).toBeUndefined();
  });

  it('headSha is the commit, undefined before the first commit, and throws outside a repository', async () => {
    const { root, outer } = await repo();
    expect(await headSha(root)).toBe((await git(root, 'rev-parse', 'HEAD')).trim());
    await rm(join(root, '.git'), { recursive: true });
    await git(root, 'init', '--quiet');
    expect(await headSha(root)).toBeUndefined();
    await expect(headSha(outer)).rejects.toBeInstanceOf(GitError);
  });
});

describe('workingTreeStatus with untracked directories collapsed', () => {
  it('lists a directory of untracked files once, with a trailing slash; loose files and tracked changes as usual', async () => {
    const { root } = await repo({ files: { 'src/a.ts': 'a\n' } });
    await writeFiles(root, { 'venv/bin/python': 'x', 'venv/lib/site.py': 'y', 'src/new.ts': 'n\n', 'src/a.ts': 'a2\n', 'loose.txt': 'l\n' });
    const collapsed = await workingTreeStatus(root, { untrackedDirs: 'collapsed' });
    expect(collapsed.untracked.sort()).toEqual(['loose.txt', 'src/new.ts', 'venv/']);
    expect(collapsed.trackedChanges).toEqual(['src/a.ts']);
    expect((await workingTreeStatus(root)).untracked.sort()).toEqual(['loose.txt', 'src/new.ts', 'venv/bin/python', 'venv/lib/site.py']);
  });
});
