/**
 * Which changed files are too large to commit, in real temporary repositories: sparse files (no
 * disk cost), a symlink, a deleted path, and files git stores through a filter (as Git LFS does).
 */
import { symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { oversizedFiles } from '../../src/git/file-sizes.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';

const MB = 1024 ** 2;
let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

async function sparse(root: string, path: string, bytes: number): Promise<void> {
  await writeFile(join(root, path), '');
  await truncate(join(root, path), bytes);
}

describe('oversizedFiles', () => {
  it('names regular files over the limit with their sizes; at the limit, symlinks and deleted paths are not', async () => {
    fixture = await makeRepo();
    const { root } = fixture;
    await sparse(root, 'big.bin', 2048 * MB);
    await sparse(root, 'limit.bin', 5 * MB);
    await sparse(root, 'over.bin', 5 * MB + 1);
    await symlink(join(root, 'big.bin'), join(root, 'link.bin'));
    const found = await oversizedFiles(root, ['big.bin', 'limit.bin', 'over.bin', 'link.bin', 'gone.bin', 'README.md'], 5 * MB);
    expect([...found]).toEqual([['big.bin', 2048 * MB], ['over.bin', 5 * MB + 1]]);
  });

  it('finds nothing with a limit of 0', async () => {
    fixture = await makeRepo();
    await sparse(fixture.root, 'big.bin', 2048 * MB);
    expect((await oversizedFiles(fixture.root, ['big.bin'], 0)).size).toBe(0);
  });

  it('leaves out files git stores through a configured filter (Git LFS), not those whose filter is not configured', async () => {
    fixture = await makeRepo({ files: { '.gitattributes': '*.lfs filter=lfs diff=lfs merge=lfs -text\n*.fake filter=not.configured\n*.dotted filter=my.driver\n' } });
    const { root } = fixture;
    // What `git lfs install` writes; git-lfs itself need not be here: only the configuration is read.
    await git(root, 'config', 'filter.lfs.process', 'git-lfs filter-process');
    await git(root, 'config', 'filter.my.driver.clean', 'cat');
    for (const path of ['model.lfs', 'data.fake', 'set.dotted', 'plain.bin']) await sparse(root, path, 10 * MB);
    const found = await oversizedFiles(root, ['model.lfs', 'data.fake', 'set.dotted', 'plain.bin'], 5 * MB);
    expect([...found.keys()]).toEqual(['data.fake', 'plain.bin']);
  });

  it('reads paths literally and from a subdirectory root', async () => {
    fixture = await makeRepo({ files: { 'sub/README.md': 'x\n', 'sub/.gitattributes': '*.lfs filter=lfs\n' } });
    await git(fixture.root, 'config', 'filter.lfs.clean', 'git-lfs clean -- %f');
    const root = join(fixture.root, 'sub');
    await sparse(root, '*.bin', 6 * MB);
    await sparse(root, 'a.lfs', 6 * MB);
    const found = await oversizedFiles(root, ['*.bin', 'a.lfs'], 5 * MB);
    expect([...found.keys()]).toEqual(['*.bin']);
  });
});
