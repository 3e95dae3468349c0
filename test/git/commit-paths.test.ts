import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors/index.js';
import { buildCommitMessage, commitPaths, hashWorkingFiles, workingTreeStatus } from '../../src/git/index.js';
import { commitCount, git, installHook, snapshotFiles, stagedNames, writeFiles, indexEntries, repo } from './git-fixture.js';

/** Every path that now differs from HEAD, as the phase hands them over when nothing is the user's. */
async function changed(root: string): Promise<string[]> {
  const status = await workingTreeStatus(root);
  return [...status.trackedChanges, ...status.untracked];
}

describe('commitPaths', () => {
  it('commits new, modified and deleted files and leaves the tree clean', async () => {
    const { root } = await repo({ files: { 'keep.txt': 'keep\n', 'edit.txt': 'v1\n', 'gone.txt': 'bye\n' } });
    await writeFiles(root, { 'edit.txt': 'v2\n', 'src/new file.ts': 'export {};\n' });
    await rm(join(root, 'gone.txt'));

    const result = await commitPaths(root, 'debussy: checkpoint phase 1', await changed(root));

    expect(result.committed).toBe(true);
    expect(result.reason).toBeUndefined();
    expect(result.files.sort()).toEqual(['edit.txt', 'gone.txt', 'src/new file.ts']);
    expect(result.sha).toBe((await git(root, 'rev-parse', 'HEAD')).trim());
    expect(await git(root, 'show', '--format=', '--name-status', 'HEAD')).toBe('M\tedit.txt\nD\tgone.txt\nA\tsrc/new file.ts\n');
    expect(await git(root, 'status', '--porcelain')).toBe('');
    expect(await commitCount(root)).toBe(2);
  });

  it('commits only the paths it is given; everything else stays as it was', async () => {
    const { root } = await repo({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    await writeFiles(root, { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'new-agent.txt': 'agent\n', '.env': 'TOKEN=abc\n' });

    const result = await commitPaths(root, 'work', ['a.txt', 'new-agent.txt']);

    expect(result.files.sort()).toEqual(['a.txt', 'new-agent.txt']);
    expect(await git(root, 'status', '--porcelain', '--untracked-files=all')).toBe(' M b.txt\n?? .env\n');
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('TOKEN=abc\n');
  });

  it("never commits what the user staged for other paths; their staging survives the commit", async () => {
    const { root } = await repo({ files: { 'user.txt': 'base\n', 'agent.txt': 'base\n' } });
    await writeFiles(root, { 'user.txt': 'staged by the user\n' });
    await git(root, 'add', 'user.txt');
    await writeFiles(root, { 'user.txt': 'and edited further\n', 'agent.txt': 'agent work\n' });

    const result = await commitPaths(root, 'work', ['agent.txt']);

    expect(result.files).toEqual(['agent.txt']);
    expect(await git(root, 'show', 'HEAD:user.txt')).toBe('base\n');
    expect(await stagedNames(root)).toEqual(['user.txt']);
    expect(await git(root, 'show', ':user.txt')).toBe('staged by the user\n');
    expect(await readFile(join(root, 'user.txt'), 'utf8')).toBe('and edited further\n');
    expect(await git(root, 'status', '--porcelain')).toBe('MM user.txt\n');
  });

  it('commits a given path as it is in the working tree, whatever its staged version', async () => {
    const { root } = await repo({ files: { 'a.txt': 'base\n' } });
    await writeFiles(root, { 'a.txt': 'staged\n' });
    await git(root, 'add', 'a.txt');
    await writeFiles(root, { 'a.txt': 'final\n' });

    await commitPaths(root, 'work', ['a.txt']);

    expect(await git(root, 'show', 'HEAD:a.txt')).toBe('final\n');
    expect(await git(root, 'status', '--porcelain')).toBe('');
  });

  it('takes paths literally: a name with glob characters matches only itself', async () => {
    const { root } = await repo();
    await writeFiles(root, { 'x[1].txt': 'one\n', 'x1.txt': 'not mine\n', '*.md': 'star\n' });

    const result = await commitPaths(root, 'work', ['x[1].txt', '*.md']);

    expect(result.files.sort()).toEqual(['*.md', 'x[1].txt']);
    expect(await git(root, 'status', '--porcelain')).toBe('?? x1.txt\n');
  });

  it('stores the message verbatim with a trailer git recognises', async () => {
    const { root } = await repo();
    await writeFiles(root, { 'a.txt': 'a\n' });
    const message = buildCommitMessage({ planName: 'demo', phaseId: '6D', purpose: 'checkpoint', restart: 1, maxRestarts: 3, contextPercent: 81 });

    await commitPaths(root, message, ['a.txt']);

    expect(await git(root, 'log', '-1', '--format=%B')).toBe(`${message}\n\n`);
    expect((await git(root, 'log', '-1', '--format=%(trailers:key=Debussy-Phase,valueonly)')).trim()).toBe('6D');
  });

  it('never touches a file outside the repository', async () => {
    const { root, outer } = await repo();
    await writeFile(join(outer, 'outside.txt'), 'not yours\n');
    await writeFiles(root, { 'inside.txt': 'in\n' });
    const before = await snapshotFiles(outer);

    const result = await commitPaths(root, 'work', await changed(root));

    expect(result.files).toEqual(['inside.txt']);
    expect((await snapshotFiles(outer)).get('outside.txt')).toBe(before.get('outside.txt'));
    expect(await git(root, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain('outside');
  });

  it('takes paths relative to root when root is a sub-directory of the repository', async () => {
    const { root } = await repo({ files: { 'app/a.txt': 'a\n', 'other/b.txt': 'b\n' } });
    await writeFiles(root, { 'app/a.txt': 'a2\n', 'app/new.txt': 'n\n', 'other/b.txt': 'b2\n' });

    const result = await commitPaths(join(root, 'app'), 'app work', await changed(join(root, 'app')));

    expect(result.files.sort()).toEqual(['a.txt', 'new.txt']);
    expect(await git(root, 'status', '--porcelain')).toBe(' M other/b.txt\n');
  });

  it('reports nothing-to-commit for no paths, and for paths whose files equal HEAD, leaving the index as it was', async () => {
    const { root } = await repo({ files: { 'a.txt': 'a\n' } });
    const head = await git(root, 'rev-parse', 'HEAD');
    expect(await commitPaths(root, 'nothing', [])).toEqual({ committed: false, files: [], reason: 'nothing-to-commit' });

    // Staged in the index, but the file itself is back to HEAD's version.
    await writeFiles(root, { 'a.txt': 'staged\n' });
    await git(root, 'add', 'a.txt');
    await writeFiles(root, { 'a.txt': 'a\n' });
    const indexBefore = await indexEntries(root);
    expect(await commitPaths(root, 'nothing', ['a.txt'])).toEqual({ committed: false, files: [], reason: 'nothing-to-commit' });
    expect(await indexEntries(root)).toBe(indexBefore);
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(head);
  });

  it("makes the first commit of a repository that has none, without the user's files", async () => {
    const { root } = await repo({ commit: false, files: { 'mine.txt': 'user\n', 'staged-by-me.txt': 'user\n' } });
    await git(root, 'add', 'staged-by-me.txt');
    await writeFiles(root, { 'dir/agent.txt': 'agent\n' });

    const result = await commitPaths(root, 'first', ['dir/agent.txt']);

    expect(result.committed).toBe(true);
    expect(result.files).toEqual(['dir/agent.txt']);
    expect(await commitCount(root)).toBe(1);
    expect(await git(root, 'status', '--porcelain')).toBe('A  staged-by-me.txt\n?? mine.txt\n');
  });

  it('throws a GitError outside a git repository', async () => {
    const { outer } = await repo();
    await expect(commitPaths(outer, 'x', ['a'])).rejects.toBeInstanceOf(GitError);
  });
});

describe('commitPaths when a commit hook refuses', () => {
  it.each(['pre-commit', 'commit-msg'])('%s exit 1: reports hook-failed and leaves tree and index exactly as they were', async (hook) => {
    const { root, outer } = await repo({ files: { 'staged.txt': 'base\n', 'edited.txt': 'base\n', 'deleted.txt': 'base\n' } });
    await installHook(root, hook, 'echo "lint: 3 problems in edited.txt" >&2\nexit 1');
    // The user staged one version of a file and kept editing it: both must survive.
    await writeFiles(root, { 'staged.txt': 'staged version\n' });
    await git(root, 'add', 'staged.txt');
    await writeFiles(root, { 'staged.txt': 'working version\n', 'edited.txt': 'edited\n', 'brand new.txt': 'new\n' });
    await rm(join(root, 'deleted.txt'));
    const head = await git(root, 'rev-parse', 'HEAD');
    const filesBefore = await snapshotFiles(outer);
    const indexBefore = await indexEntries(root);

    const result = await commitPaths(root, 'debussy: checkpoint', ['edited.txt', 'brand new.txt', 'deleted.txt']);

    expect(result.committed).toBe(false);
    expect(result.reason).toBe('hook-failed');
    expect(result.error).toContain('lint: 3 problems in edited.txt');
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(await snapshotFiles(outer)).toEqual(filesBefore);
    expect(await indexEntries(root)).toBe(indexBefore);
    expect(await stagedNames(root)).toEqual(['staged.txt']);
    expect(await git(root, 'show', ':staged.txt')).toBe('staged version\n');
  });

  it('restores the empty staging area of a repository with no commit yet', async () => {
    const { root } = await repo({ commit: false, files: { 'a.txt': 'a\n' } });
    await installHook(root, 'pre-commit', 'exit 1');

    const result = await commitPaths(root, 'first', ['a.txt']);

    expect(result).toMatchObject({ committed: false, reason: 'hook-failed' });
    expect(await git(root, 'ls-files', '--stage')).toBe('');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('commits once the hook passes', async () => {
    const { root } = await repo();
    await installHook(root, 'pre-commit', 'test -f allow || exit 1');
    await writeFiles(root, { 'work.txt': 'w\n' });
    expect((await commitPaths(root, 'try 1', await changed(root))).reason).toBe('hook-failed');

    await writeFiles(root, { allow: '' });
    const result = await commitPaths(root, 'try 2', await changed(root));

    expect(result.committed).toBe(true);
    expect(result.files.sort()).toEqual(['allow', 'work.txt']);
  });

  it('reports a failure with no hook as error and still restores the index', async () => {
    const { root } = await repo();
    await writeFiles(root, { 'work.txt': 'w\n' });
    // A signing program that cannot run makes `git commit` itself fail.
    await git(root, 'config', 'commit.gpgsign', 'true');
    await git(root, 'config', 'gpg.program', join(root, 'no-such-gpg'));
    const indexBefore = await indexEntries(root);

    const result = await commitPaths(root, 'signed', ['work.txt']);

    expect(result.committed).toBe(false);
    expect(result.reason).toBe('error');
    expect(result.error).toBeTruthy();
    expect(await indexEntries(root)).toBe(indexBefore);
    expect(await readFile(join(root, 'work.txt'), 'utf8')).toBe('w\n');
  });
});

describe('what a phase hands commitPaths', () => {
  it('leaves out files matched by .gitignore and debussy run data, whatever .gitignore says', async () => {
    const { root } = await repo({ files: { '.gitignore': 'build/\n*.log\n' } });
    await writeFiles(root, {
      'build/out.js': 'x', 'debug.log': 'noise', 'src/main.ts': 'main\n',
      '.debussy/runs/20250101-1/journal.ndjson': '{}\n', '.debussy/run.lock': '{"pid":1}\n', '.debussy/project.ndjson': '{}\n', '.debussy/config.yaml': 'context_threshold: 80\n',
    });

    const result = await commitPaths(root, 'work', await changed(root));

    expect(result.files.sort()).toEqual(['.debussy/config.yaml', 'src/main.ts']);
    expect(await readFile(join(root, 'build/out.js'), 'utf8')).toBe('x');
    expect(await readFile(join(root, '.debussy/run.lock'), 'utf8')).toBe('{"pid":1}\n');
    expect((await workingTreeStatus(root)).clean).toBe(true);
  });
});

describe('hashWorkingFiles', () => {
  it("gives each file git's blob id, null for a path with no file, and sees an edit", async () => {
    const { root } = await repo({ files: { 'a.txt': 'a\n' } });
    await writeFiles(root, { 'b c.txt': 'b\n' });
    const before = await hashWorkingFiles(root, ['a.txt', 'b c.txt', 'gone.txt']);
    expect(before).toEqual(new Map([['a.txt', (await git(root, 'rev-parse', 'HEAD:a.txt')).trim()], ['b c.txt', expect.stringMatching(/^[0-9a-f]{40}$/)], ['gone.txt', null]]));
    await writeFiles(root, { 'b c.txt': 'b2\n' });
    expect((await hashWorkingFiles(root, ['b c.txt'])).get('b c.txt')).not.toBe(before.get('b c.txt'));
    expect(await git(root, 'status', '--porcelain')).toBe('?? "b c.txt"\n');
  });
});
