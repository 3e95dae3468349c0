/**
 * Commits through hooks that change what is committed, and through a hook debussy never sees
 * finish: the user's index is untouched until the commit is made, and equals HEAD for the
 * committed paths after it. Real git, real hooks, temp repositories.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitPaths } from '../../src/git/index.js';
import { git, indexEntries, installHook, repo, writeFiles } from './git-fixture.js';

/** A formatter as lint-staged runs one: rewrites each staged .txt file and stages it again. */
const FORMATTER = `git diff --cached --name-only --diff-filter=ACM -z | xargs -0 -r -n1 sh -c 'case "$0" in *.txt) sed -i "s/ugly/pretty/" "$0" && git add "$0";; esac'`;

describe('commitPaths through a hook that restages', () => {
  it('a formatter that rewrites and restages a file: the commit holds the formatted file and the index equals HEAD', async () => {
    const { root } = await repo({ files: { 'old.txt': 'ugly old\n', 'user.txt': 'base\n' } });
    await installHook(root, 'pre-commit', FORMATTER);
    await writeFiles(root, { 'old.txt': 'ugly edit\n', 'new.txt': 'ugly new\n', 'user.txt': 'staged by the user\n' });
    await git(root, 'add', 'user.txt');

    const result = await commitPaths(root, 'work', ['old.txt', 'new.txt']);

    expect(result).toMatchObject({ committed: true, files: ['new.txt', 'old.txt'] });
    expect(result.indexWarning).toBeUndefined();
    expect(await git(root, 'show', 'HEAD:new.txt')).toBe('pretty new\n');
    expect(await git(root, 'show', 'HEAD:old.txt')).toBe('pretty edit\n');
    // Not `MM old.txt` / `AM new.txt`: the pre-format content is not left staged.
    expect(await git(root, 'status', '--porcelain')).toBe('M  user.txt\n');
    expect(await git(root, 'show', ':user.txt')).toBe('staged by the user\n');
  });

  it('a file a hook adds to the commit gets its entry, unless the user had staged it', async () => {
    const { root } = await repo({ files: { 'user.txt': 'base\n' } });
    await installHook(root, 'pre-commit', 'echo generated > version.txt && git add version.txt && echo "hook version" > user.txt && git add user.txt');
    await writeFiles(root, { 'agent.txt': 'agent\n', 'user.txt': 'staged by the user\n' });
    await git(root, 'add', 'user.txt');

    const result = await commitPaths(root, 'work', ['agent.txt']);

    expect(result.files).toEqual(['agent.txt', 'user.txt', 'version.txt']);
    expect(await git(root, 'ls-files', '--stage', 'version.txt')).toContain('version.txt');
    // The user's staging of user.txt survives what the hook did to it.
    expect(await git(root, 'show', ':user.txt')).toBe('staged by the user\n');
    expect(await git(root, 'status', '--porcelain', '--', 'agent.txt', 'version.txt')).toBe('');
  });
});

describe('commitPaths while a hook runs', () => {
  it("the user's index is untouched until the commit is made: a commit never finished stages nothing", async () => {
    const { root } = await repo({ files: { 'a.txt': 'base\n' } });
    await installHook(root, 'pre-commit', 'touch hook-started\nwhile [ ! -f hook-may-end ]; do sleep 0.05; done\nexit 1');
    await writeFiles(root, { 'a.txt': 'agent edit\n', 'new.txt': 'agent new\n' });
    const before = await indexEntries(root);

    const committing = commitPaths(root, 'work', ['a.txt', 'new.txt']);
    while (!existsSync(join(root, 'hook-started'))) await new Promise((resolve) => setTimeout(resolve, 20));
    // What a run started now (after a kill -9 of debussy here) would find: nothing staged.
    expect(await indexEntries(root)).toBe(before);
    expect(await git(root, 'diff', '--cached', '--name-only')).toBe('');
    await writeFiles(root, { 'hook-may-end': '' });

    expect(await committing).toMatchObject({ committed: false, reason: 'hook-failed' });
    expect(await indexEntries(root)).toBe(before);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('agent edit\n');
  });
});
