import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors/index.js';
import { buildCommitMessage, commitAll, workingTreeStatus } from '../../src/git/index.js';
import { commitCount, git, installHook, snapshotFiles, stagedNames, writeFiles, indexEntries, repo } from './git-fixture.js';

describe('commitAll', () => {
  it('commits new, modified and deleted files and leaves the tree clean', async () => {
    const { root } = await repo({ files: { 'keep.txt': 'keep\n', 'edit.txt': 'v1\n', 'gone.txt': 'bye\n' } });
    await writeFiles(root, { 'edit.txt': 'v2\n', 'src/new file.ts': 'export {};\n' });
    await rm(join(root, 'gone.txt'));

    const result = await commitAll(root, 'debussy: checkpoint phase 1');

    expect(result.committed).toBe(true);
    expect(result.reason).toBeUndefined();
    expect(result.files.sort()).toEqual(['edit.txt', 'gone.txt', 'src/new file.ts']);
    expect(result.sha).toBe((await git(root, 'rev-parse', 'HEAD')).trim());
    expect(await git(root, 'show', '--format=', '--name-status', 'HEAD')).toBe('M\tedit.txt\nD\tgone.txt\nA\tsrc/new file.ts\n');
    expect(await git(root, 'status', '--porcelain')).toBe('');
    expect(await commitCount(root)).toBe(2);
  });

  it('stores the message verbatim with a trailer git recognises', async () => {
    const { root } = await repo();
    await writeFiles(root, { 'a.txt': 'a\n' });
    const message = buildCommitMessage({ planName: 'demo', phaseId: '6D', purpose: 'checkpoint', restart: 1, maxRestarts: 3, contextPercent: 81 });

    await commitAll(root, message);

    expect(await git(root, 'log', '-1', '--format=%B')).toBe(`${message}\n\n`);
    expect((await git(root, 'log', '-1', '--format=%(trailers:key=Debussy-Phase,valueonly)')).trim()).toBe('6D');
  });

  it('leaves files matched by .gitignore out of the commit and on disk', async () => {
    const { root } = await repo({ files: { '.gitignore': 'build/\n*.log\n' } });
    await writeFiles(root, { 'build/out.js': 'x', 'debug.log': 'noise', 'src/main.ts': 'main\n' });

    const result = await commitAll(root, 'work');

    expect(result.files).toEqual(['src/main.ts']);
    expect(await git(root, 'ls-files')).toBe('.gitignore\nsrc/main.ts\n');
    expect(await readFile(join(root, 'build/out.js'), 'utf8')).toBe('x');
    expect(await readFile(join(root, 'debug.log'), 'utf8')).toBe('noise');
  });

  it('never touches a file outside the repository', async () => {
    const { root, outer } = await repo();
    await writeFile(join(outer, 'outside.txt'), 'not yours\n');
    await writeFiles(root, { 'inside.txt': 'in\n' });
    const before = await snapshotFiles(outer);

    const result = await commitAll(root, 'work');

    expect(result.files).toEqual(['inside.txt']);
    expect((await snapshotFiles(outer)).get('outside.txt')).toBe(before.get('outside.txt'));
    expect(await git(root, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain('outside');
  });

  it('commits only under root when root is a sub-directory of the repository', async () => {
    const { root } = await repo({ files: { 'app/a.txt': 'a\n', 'other/b.txt': 'b\n' } });
    await writeFiles(root, { 'app/a.txt': 'a2\n', 'app/new.txt': 'n\n', 'other/b.txt': 'b2\n' });

    const result = await commitAll(join(root, 'app'), 'app work');

    expect(result.files.sort()).toEqual(['a.txt', 'new.txt']);
    expect(await git(root, 'status', '--porcelain')).toBe(' M other/b.txt\n');
  });

  it('reports nothing-to-commit on a clean tree and when only ignored files changed', async () => {
    const { root } = await repo({ files: { '.gitignore': '*.tmp\n' } });
    const head = await git(root, 'rev-parse', 'HEAD');

    expect(await commitAll(root, 'nothing')).toEqual({ committed: false, files: [], reason: 'nothing-to-commit' });
    await writeFiles(root, { 'scratch.tmp': 'ignored' });
    expect(await commitAll(root, 'nothing')).toEqual({ committed: false, files: [], reason: 'nothing-to-commit' });
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('commits in a repository that has no commit yet', async () => {
    const { root } = await repo({ commit: false, files: { 'first.txt': 'one\n', 'dir/second.txt': 'two\n' } });

    const result = await commitAll(root, 'first');

    expect(result.committed).toBe(true);
    expect(result.files.sort()).toEqual(['dir/second.txt', 'first.txt']);
    expect(await commitCount(root)).toBe(1);
  });

  it('never commits debussy run data, whatever .gitignore says', async () => {
    const { root } = await repo();
    await writeFiles(root, {
      '.debussy/runs/20250101-1/journal.ndjson': '{"type":"run_started"}\n',
      '.debussy/runs/20250101-1/session-1.stream.ndjson': '{}\n',
      '.debussy/run.lock': '{"pid":1}\n',
      '.debussy/project.ndjson': '{}\n',
      '.debussy/config.yaml': 'context_threshold: 80\n',
      'work.txt': 'work\n',
    });

    const result = await commitAll(root, 'work');

    expect(result.files.sort()).toEqual(['.debussy/config.yaml', 'work.txt']);
    expect(await git(root, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toMatch(/runs|run\.lock|project\.ndjson/);
    expect(await readFile(join(root, '.debussy/run.lock'), 'utf8')).toBe('{"pid":1}\n');
    expect((await workingTreeStatus(root)).clean).toBe(true);
    expect(await commitAll(root, 'again')).toMatchObject({ committed: false, reason: 'nothing-to-commit' });
  });

  it('commits when the project already ignores the run data (as `debussy init` sets it up)', async () => {
    const { root } = await repo({ files: { '.gitignore': '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n' } });
    await writeFiles(root, {
      '.debussy/runs/20250101-1/journal.ndjson': '{}\n',
      '.debussy/run.lock': '{"pid":1}\n',
      '.debussy/project.ndjson': '{}\n',
      'work.txt': 'work\n',
    });

    const result = await commitAll(root, 'work');

    expect(result).toMatchObject({ committed: true, files: ['work.txt'] });
    expect((await workingTreeStatus(root)).clean).toBe(true);
  });

  it('leaves out the extra paths it is told to exclude', async () => {
    const { root } = await repo();
    await writeFiles(root, { 'notes/private.md': 'secret\n', 'code.ts': 'code\n' });

    const result = await commitAll(root, 'work', { exclude: ['notes'] });

    expect(result.files).toEqual(['code.ts']);
    expect(await git(root, 'status', '--porcelain', '--untracked-files=all')).toBe('?? notes/private.md\n');
  });

  it('throws a GitError outside a git repository', async () => {
    const { outer } = await repo();
    await expect(commitAll(outer, 'x')).rejects.toBeInstanceOf(GitError);
  });
});

describe('commitAll when a commit hook refuses', () => {
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

    const result = await commitAll(root, 'debussy: checkpoint');

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

    const result = await commitAll(root, 'first');

    expect(result).toMatchObject({ committed: false, reason: 'hook-failed' });
    expect(await git(root, 'ls-files', '--stage')).toBe('');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('commits once the hook passes', async () => {
    const { root } = await repo();
    await installHook(root, 'pre-commit', 'test -f allow || exit 1');
    await writeFiles(root, { 'work.txt': 'w\n' });
    expect((await commitAll(root, 'try 1')).reason).toBe('hook-failed');

    await writeFiles(root, { allow: '' });
    const result = await commitAll(root, 'try 2');

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

    const result = await commitAll(root, 'signed');

    expect(result.committed).toBe(false);
    expect(result.reason).toBe('error');
    expect(result.error).toBeTruthy();
    expect(await indexEntries(root)).toBe(indexBefore);
    expect(await readFile(join(root, 'work.txt'), 'utf8')).toBe('w\n');
  });
});
