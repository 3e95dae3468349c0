import { describe, expect, it } from 'vitest';
import { decideCommitScope, userChangeLookup, userChangesAtPhaseStart, userChangesAtResume, type CommitScope, type FileState, type UserChange } from '../../src/git/index.js';

describe('userChangesAtPhaseStart', () => {
  it('takes every untracked and every modified or staged tracked path as the user\'s', () => {
    expect(userChangesAtPhaseStart({ untracked: ['.env', 'notes/todo.md'], trackedChanges: ['src/a.ts', 'README.md'] })).toEqual([
      { path: '.env', origin: 'untracked_before_phase' },
      { path: 'README.md', origin: 'modified_before_phase' },
      { path: 'notes/todo.md', origin: 'untracked_before_phase' },
      { path: 'src/a.ts', origin: 'modified_before_phase' },
    ]);
  });

  it('is empty on a clean tree', () => {
    expect(userChangesAtPhaseStart({ untracked: [], trackedChanges: [] })).toEqual([]);
  });

  it('keeps a collapsed untracked directory as one entry', () => {
    expect(userChangesAtPhaseStart({ untracked: ['venv/'], trackedChanges: [] })).toEqual([{ path: 'venv/', origin: 'untracked_before_phase' }]);
  });
});

describe('userChangesAtResume', () => {
  const recorded: UserChange[] = [{ path: '.env', origin: 'untracked_before_phase' }];
  const status = { untracked: ['.env', 'agent-new.txt', 'user-new.txt'], trackedChanges: ['agent-edit.ts', 'user-staged.ts', 'user-edit.ts'], staged: ['user-staged.ts'] };
  const hashesNow = new Map<string, string | null>([['.env', 'e1'], ['agent-new.txt', 'a1'], ['agent-edit.ts', 'a2'], ['user-edit.ts', 'u2']]);

  it.each<[string, FileState[] | undefined, UserChange[]]>([
    [
      "after a crash: only what is staged now is added (the dead session's work is taken on)",
      undefined,
      [...recorded, { path: 'user-staged.ts', origin: 'changed_between_runs' }],
    ],
    [
      'after a graceful stop: everything that was not uncommitted at the stop',
      [{ path: '.env', hash: 'e1' }, { path: 'agent-new.txt', hash: 'a1' }, { path: 'agent-edit.ts', hash: 'a2' }],
      [
        ...recorded,
        { path: 'user-edit.ts', origin: 'changed_between_runs' },
        { path: 'user-new.txt', origin: 'changed_between_runs' },
        { path: 'user-staged.ts', origin: 'changed_between_runs' },
      ],
    ],
    [
      'after a graceful stop: a file left uncommitted then (a refused commit) that was edited since',
      [{ path: 'agent-new.txt', hash: 'a1' }, { path: 'agent-edit.ts', hash: 'a2' }, { path: 'user-edit.ts', hash: 'u1' }, { path: 'user-new.txt', hash: null }, { path: 'user-staged.ts', hash: null }],
      [...recorded, { path: 'user-edit.ts', origin: 'changed_between_runs' }, { path: 'user-new.txt', origin: 'changed_between_runs' }, { path: 'user-staged.ts', origin: 'changed_between_runs' }],
    ],
    ['after a graceful stop that committed everything: every change now', [], [
      ...recorded,
      { path: 'agent-edit.ts', origin: 'changed_between_runs' },
      { path: 'agent-new.txt', origin: 'changed_between_runs' },
      { path: 'user-edit.ts', origin: 'changed_between_runs' },
      { path: 'user-new.txt', origin: 'changed_between_runs' },
      { path: 'user-staged.ts', origin: 'changed_between_runs' },
    ]],
  ])('%s', (_name, uncommittedAtStop, expected) => {
    expect(userChangesAtResume({ recorded, status, uncommittedAtStop, hashesNow })).toEqual(expected);
  });

  it('keeps the recorded origin of a path, never replaces the record with a new snapshot', () => {
    const result = userChangesAtResume({
      recorded: [{ path: 'README.md', origin: 'modified_before_phase' }],
      status: { untracked: [], trackedChanges: ['README.md'], staged: ['README.md'] },
      uncommittedAtStop: undefined,
      hashesNow: new Map(),
    });
    expect(result).toEqual([{ path: 'README.md', origin: 'modified_before_phase' }]);
  });

  it("takes files under a recorded directory as the user's, not as new changes", () => {
    const result = userChangesAtResume({
      recorded: [{ path: 'data/', origin: 'untracked_before_phase' }],
      status: { untracked: ['data/a.csv', 'data/deep/b.csv', 'database.ts'], trackedChanges: [], staged: [] },
      uncommittedAtStop: [{ path: 'database.ts', hash: 'd1' }],
      hashesNow: new Map([['database.ts', 'd1']]),
    });
    expect(result).toEqual([{ path: 'data/', origin: 'untracked_before_phase' }]);
  });

  it('keeps a recorded path that is no longer changed (the user may change it again)', () => {
    const result = userChangesAtResume({ recorded, status: { untracked: [], trackedChanges: [], staged: [] }, uncommittedAtStop: [], hashesNow: new Map() });
    expect(result).toEqual(recorded);
  });
});

describe('decideCommitScope', () => {
  const userChanges: UserChange[] = [
    { path: '.env', origin: 'untracked_before_phase' },
    { path: 'src/user.ts', origin: 'modified_before_phase' },
    { path: 'between.txt', origin: 'changed_between_runs' },
    { path: 'venv/', origin: 'untracked_before_phase' },
  ];

  const MB = 1024 ** 2;
  const oversized = { maxBytes: 5 * MB, sizes: new Map([['big.bin', 2048 * MB], ['data/cache.db', 300 * MB], ['.env.huge', 6 * MB], ['venv/lib/big.so', 9 * MB]]) };

  it.each<[string, { changed: string[]; commitSecrets: boolean; oversized?: typeof oversized; holdingCredentials?: Set<string> }, CommitScope]>([
    ['a clean tree commits nothing', { changed: [], commitSecrets: false }, { commit: [], leftOut: [] }],
    [
      "the agent's files are committed; the user's are left out with their reason",
      { changed: ['src/agent.ts', '.env', 'src/user.ts', 'between.txt', 'README.md'], commitSecrets: false },
      {
        commit: ['README.md', 'src/agent.ts'],
        leftOut: [
          { path: '.env', reason: 'untracked_before_phase' },
          { path: 'between.txt', reason: 'changed_between_runs' },
          { path: 'src/user.ts', reason: 'modified_before_phase' },
        ],
      },
    ],
    [
      'a credentials file the agent wrote is left out',
      { changed: ['.env.local', 'keys/deploy.pem', 'app.ts', 'id_rsa.pub'], commitSecrets: false },
      {
        commit: ['app.ts', 'id_rsa.pub'],
        leftOut: [
          { path: '.env.local', reason: 'looks_like_credentials' },
          { path: 'keys/deploy.pem', reason: 'looks_like_credentials' },
        ],
      },
    ],
    [
      'a configuration file judged by content is left out when it holds a credential, committed when not',
      { changed: ['.npmrc', 'web/.npmrc', '.yarnrc.yml', 'app.ts'], commitSecrets: false, holdingCredentials: new Set(['.npmrc']) },
      { commit: ['.yarnrc.yml', 'app.ts', 'web/.npmrc'], leftOut: [{ path: '.npmrc', reason: 'looks_like_credentials' }] },
    ],
    [
      'with commit_secrets the agent\'s credentials files are committed',
      { changed: ['.env.local', 'app.ts'], commitSecrets: true },
      { commit: ['.env.local', 'app.ts'], leftOut: [] },
    ],
    [
      "commit_secrets never commits the user's own .env",
      { changed: ['.env', 'app.ts'], commitSecrets: true },
      { commit: ['app.ts'], leftOut: [{ path: '.env', reason: 'untracked_before_phase' }] },
    ],
    [
      "files under a directory of the user's stay out, named once by the directory",
      { changed: ['venv/bin/python', 'venv/lib/x.py', 'venvy.txt', 'src/venv/a.ts'], commitSecrets: false },
      { commit: ['src/venv/a.ts', 'venvy.txt'], leftOut: [{ path: 'venv/', reason: 'untracked_before_phase' }] },
    ],
    [
      'files over the size limit are left out with their size; the user\'s stay the user\'s; credentials are named as credentials',
      { changed: ['big.bin', 'data/cache.db', 'app.ts', '.env.huge', 'venv/lib/big.so'], commitSecrets: false, oversized },
      {
        commit: ['app.ts'],
        leftOut: [
          { path: '.env.huge', reason: 'looks_like_credentials' },
          { path: 'big.bin', reason: 'too_large', bytes: 2048 * MB, maxBytes: 5 * MB },
          { path: 'data/cache.db', reason: 'too_large', bytes: 300 * MB, maxBytes: 5 * MB },
          { path: 'venv/', reason: 'untracked_before_phase' },
        ],
      },
    ],
    [
      'commit_secrets does not lift the size limit',
      { changed: ['.env.huge', 'app.ts'], commitSecrets: true, oversized },
      { commit: ['app.ts'], leftOut: [{ path: '.env.huge', reason: 'too_large', bytes: 6 * MB, maxBytes: 5 * MB }] },
    ],
    [
      'a path listed twice (staged and changed) appears once',
      { changed: ['app.ts', 'app.ts'], commitSecrets: false },
      { commit: ['app.ts'], leftOut: [] },
    ],
  ])('%s', (_name, input, expected) => {
    expect(decideCommitScope({ userChanges, holdingCredentials: new Set(), ...input })).toEqual(expected);
  });
});

describe('userChangeLookup', () => {
  const lookup = userChangeLookup([{ path: 'a/b/', origin: 'untracked_before_phase' }, { path: 'x.txt', origin: 'modified_before_phase' }]);
  it.each<[string, string | undefined]>([
    ['x.txt', 'x.txt'],
    ['a/b/c.txt', 'a/b/'],
    ['a/b/deep/d.txt', 'a/b/'],
    ['a/bc.txt', undefined],
    ['a/c.txt', undefined],
    ['b/c.txt', undefined],
    ['x.txt.bak', undefined],
  ])('%s -> %s', (path, covering) => {
    expect(lookup(path)?.path).toBe(covering);
  });
});
