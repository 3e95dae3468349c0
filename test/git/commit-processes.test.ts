import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitPaths, parseCommitListing } from '../../src/git/commit.js';
import { git, repo, writeFiles } from './git-fixture.js';

const SHA1 = 'a'.repeat(40);
const SHA256 = 'b'.repeat(64);

describe('parseCommitListing', () => {
  it.each<[string, string, { sha: string; files: string[] } | undefined]>([
    ['a root commit: the id, then every path', `${SHA1}\0a\0d/b\0`, { sha: SHA1, files: ['a', 'd/b'] }],
    ['a commit on top of another', `${SHA1}\0c\0`, { sha: SHA1, files: ['c'] }],
    ['a SHA-256 repository', `${SHA256}\0a\0`, { sha: SHA256, files: ['a'] }],
    ['no path under root changed (--always still prints the id)', `${SHA1}\0`, { sha: SHA1, files: [] }],
    ['paths with spaces, newlines and a name of 40 hex digits', `${SHA1}\0a b\0line\nbreak\0${SHA1}\0`, { sha: SHA1, files: ['a b', 'line\nbreak', SHA1] }],
    ['nothing printed', '', undefined],
    ['paths with no id before them', 'a\0d/b\0', undefined],
    ['an abbreviated id', `${SHA1.slice(0, 12)}\0a\0`, undefined],
  ])('%s', (_name, output, expected) => {
    expect(parseCommitListing(output)).toEqual(expected);
  });
});

describe('commitPaths on a branch with no commit yet', () => {
  it('makes the root commit of exactly the given paths and reports its id and files', async () => {
    const { root } = await repo({ commit: false, files: { 'staged-by-me.txt': 'user\n' } });
    await git(root, 'add', 'staged-by-me.txt');
    await writeFiles(root, { 'agent.txt': 'a\n', 'dir/new file.ts': 'export {};\n' });

    const result = await commitPaths(root, 'first', ['agent.txt', 'dir/new file.ts']);

    expect(result).toEqual({ committed: true, sha: (await git(root, 'rev-parse', 'HEAD')).trim(), files: ['agent.txt', 'dir/new file.ts'] });
    expect(await git(root, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('agent.txt\ndir/new file.ts\n');
    expect(await git(root, 'status', '--porcelain')).toBe('A  staged-by-me.txt\n');
  });

  it('lists paths relative to a sub-directory root, and only those under it', async () => {
    const { root } = await repo({ commit: false, files: { 'app/a.txt': 'a\n', 'other/b.txt': 'b\n' } });
    await git(root, 'add', 'other/b.txt');

    const result = await commitPaths(join(root, 'app'), 'first', ['a.txt']);

    expect(result).toEqual({ committed: true, sha: (await git(root, 'rev-parse', 'HEAD')).trim(), files: ['a.txt'] });
    expect(await git(root, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('app/a.txt\n');
  });
});

/**
 * Every git process debussy starts goes through a `git` on PATH that logs its arguments, one line
 * each, and runs the real git (git's own children use git's exec path, not PATH: not counted).
 */
describe('the git processes of a commit', () => {
  let wrapperDir = '';
  let log = '';
  let savedPath: string | undefined;

  beforeAll(async () => {
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    wrapperDir = await mkdtemp(join(tmpdir(), 'debussy-git-log-'));
    log = join(wrapperDir, 'log');
    await writeFile(join(wrapperDir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
    await chmod(join(wrapperDir, 'git'), 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${wrapperDir}${delimiter}${savedPath ?? ''}`;
  });

  afterAll(async () => {
    process.env.PATH = savedPath;
    await rm(wrapperDir, { recursive: true, force: true });
  });

  async function commandsOf(action: () => Promise<unknown>): Promise<string[]> {
    await writeFile(log, '');
    await action();
    return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '').map((line) => line.split(' ').find((word) => !word.startsWith('-') && !word.includes('=')) ?? line);
  }

  it('asks the index path, the identity and whether root is a work tree once per root', async () => {
    const { root } = await repo({ files: { 'a.txt': 'a\n' } });

    await writeFiles(root, { 'a.txt': 'a2\n' });
    const first = await commandsOf(() => commitPaths(root, 'one', ['a.txt']));
    await writeFiles(root, { 'a.txt': 'a3\n', 'b.txt': 'b\n' });
    let result: unknown;
    const second = await commandsOf(async () => (result = await commitPaths(root, 'two', ['a.txt', 'b.txt'])));

    expect(first).toEqual(['rev-parse', 'rev-parse', 'add', 'diff', 'config', 'commit', 'diff-tree', 'reset']);
    expect(second).toEqual(['add', 'diff', 'commit', 'diff-tree', 'reset']);
    expect(result).toEqual({ committed: true, sha: (await git(root, 'rev-parse', 'HEAD')).trim(), files: ['a.txt', 'b.txt'] });
  });
});
