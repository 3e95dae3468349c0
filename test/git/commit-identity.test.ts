import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitPaths } from '../../src/git/index.js';
import { git, makeRepo, writeFiles, type Fixture } from './git-fixture.js';

// This file changes process.env for its own worker only (vitest runs each file in its own process).
const IDENTITY_VARIABLES = ['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM'];
const IDENTITY_OVERRIDES = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'EMAIL'];

let saved: Record<string, string | undefined> = {};
let emptyHome = '';
let fixture: Fixture | undefined;

beforeEach(async () => {
  saved = Object.fromEntries([...IDENTITY_VARIABLES, ...IDENTITY_OVERRIDES].map((name) => [name, process.env[name]]));
  emptyHome = await mkdtemp(join(tmpdir(), 'debussy-home-'));
  process.env.HOME = emptyHome;
  process.env.XDG_CONFIG_HOME = join(emptyHome, '.config');
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  for (const name of ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', ...IDENTITY_OVERRIDES]) delete process.env[name];
});

afterEach(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await fixture?.cleanup();
  fixture = undefined;
  await rm(emptyHome, { recursive: true, force: true });
});

describe('commitPaths identity', () => {
  it('commits as debussy when no user.name or user.email is configured anywhere', async () => {
    fixture = await makeRepo({ commit: false, identity: false });
    const { root } = fixture;
    await expect(git(root, 'config', '--get', 'user.name')).rejects.toThrow();
    await writeFiles(root, { 'work.txt': 'w\n' });

    const result = await commitPaths(root, 'first', ['work.txt']);

    expect(result.committed).toBe(true);
    expect((await git(root, 'log', '-1', '--format=%an <%ae>|%cn <%ce>')).trim()).toBe('debussy <debussy@localhost>|debussy <debussy@localhost>');
    // The fallback is per commit, never written into the user's config.
    await expect(git(root, 'config', '--get', 'user.name')).rejects.toThrow();
  });

  it('keeps a configured identity', async () => {
    fixture = await makeRepo({ commit: false, identity: false });
    const { root } = fixture;
    await git(root, 'config', 'user.name', 'Ada');
    await git(root, 'config', 'user.email', 'ada@example.invalid');
    await writeFiles(root, { 'work.txt': 'w\n' });

    await commitPaths(root, 'first', ['work.txt']);

    expect((await git(root, 'log', '-1', '--format=%an <%ae>')).trim()).toBe('Ada <ada@example.invalid>');
  });

  it('asks once per root: an identity configured while debussy runs is used from the next run', async () => {
    fixture = await makeRepo({ commit: false, identity: false });
    const { root } = fixture;
    await writeFiles(root, { 'one.txt': '1\n' });
    expect((await commitPaths(root, 'one', ['one.txt'])).committed).toBe(true);

    await git(root, 'config', 'user.name', 'Ada');
    await git(root, 'config', 'user.email', 'ada@example.invalid');
    await writeFiles(root, { 'two.txt': '2\n' });
    expect((await commitPaths(root, 'two', ['two.txt'])).committed).toBe(true);

    expect((await git(root, 'log', '-1', '--format=%an <%ae>')).trim()).toBe('debussy <debussy@localhost>');
  });

  it.each<[string, Record<string, string>, Record<string, string>, string]>([
    ['only a name: the name is kept, the email falls back', { 'user.name': 'Ada' }, {}, 'Ada <debussy@localhost>'],
    ['only an email: the email is kept, the name falls back', { 'user.email': 'ada@example.invalid' }, {}, 'debussy <ada@example.invalid>'],
    ['the repository empties the global email: the last setting wins, so it falls back', { 'user.name': 'Ada', 'user.email': 'ada@example.invalid' }, { 'user.email': '' }, 'Ada <debussy@localhost>'],
    ['the repository sets what the global config lacks', { 'user.name': 'Ada' }, { 'user.email': 'repo@example.invalid' }, 'Ada <repo@example.invalid>'],
  ])('%s', async (_name, globalConfig, repoConfig, expected) => {
    fixture = await makeRepo({ commit: false, identity: false });
    const { root } = fixture;
    for (const [key, value] of Object.entries(globalConfig)) await git(root, 'config', '--global', key, value);
    for (const [key, value] of Object.entries(repoConfig)) await git(root, 'config', key, value);
    await writeFiles(root, { 'work.txt': 'w\n' });

    expect((await commitPaths(root, 'first', ['work.txt'])).committed).toBe(true);
    expect((await git(root, 'log', '-1', '--format=%an <%ae>')).trim()).toBe(expected);
  });
});
