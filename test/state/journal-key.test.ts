/** debussy's per-user key: where it lives, how it is made, and the one error when it cannot be had. */
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalKey, requireJournalKey, userStateDir } from '../../src/state/index.js';
import { StateError } from '../../src/errors/index.js';
import { makeTempDir } from './support.js';

describe('userStateDir', () => {
  it.each([
    ['the override', { DEBUSSY_STATE_DIR: '/srv/keys' }, 'linux', '/srv/keys'],
    ['XDG_STATE_HOME', { XDG_STATE_HOME: '/x/state' }, 'linux', '/x/state/debussy'],
    ['a relative XDG_STATE_HOME is ignored', { XDG_STATE_HOME: 'state' }, 'linux', '/home/u/.local/state/debussy'],
    ['linux default', {}, 'linux', '/home/u/.local/state/debussy'],
    ['macOS', { XDG_STATE_HOME: '/x/state' }, 'darwin', '/home/u/Library/Application Support/debussy'],
  ] as const)('%s', (_what, env, platform, expected) => {
    expect(userStateDir(env, platform, '/home/u')).toBe(expected);
  });
});

describe('journalKey', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('key');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made on first use, readable by the user alone, and the same key afterwards', () => {
    const env = { DEBUSSY_STATE_DIR: join(dir, 'state') };
    const key = journalKey(env);
    expect(key.ok).toBe(true);
    const file = join(dir, 'state', 'journal.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(key.ok && key.key.toString('hex')).toBe(readFileSync(file, 'utf8').trim());
    expect(journalKey(env)).toBe(key);
  });

  it('a key file another user could read is made private again', () => {
    mkdirSync(join(dir, 'wide'));
    writeFileSync(join(dir, 'wide', 'journal.key'), `${'ab'.repeat(32)}\n`);
    chmodSync(join(dir, 'wide', 'journal.key'), 0o644);
    expect(journalKey({ DEBUSSY_STATE_DIR: join(dir, 'wide') }).ok).toBe(true);
    expect(statSync(join(dir, 'wide', 'journal.key')).mode & 0o777).toBe(0o600);
  });

  it('a file that is not a key, or a directory that cannot be made, is a problem with one clear error', () => {
    mkdirSync(join(dir, 'bad'));
    writeFileSync(join(dir, 'bad', 'journal.key'), 'not a key\n');
    expect(journalKey({ DEBUSSY_STATE_DIR: join(dir, 'bad') })).toMatchObject({ ok: false, problem: expect.stringContaining('is not a debussy key') as string });
    writeFileSync(join(dir, 'a-file'), 'x');
    const blocked = { DEBUSSY_STATE_DIR: join(dir, 'a-file', 'state') };
    expect(journalKey(blocked)).toMatchObject({ ok: false, problem: expect.stringContaining('cannot create') as string });
    let error: unknown;
    try {
      requireJournalKey(blocked);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(StateError);
    expect(error).toMatchObject({ code: 'E_JOURNAL_KEY', exitKind: 'prerequisites' });
    expect((error as StateError).hint).toContain('DEBUSSY_STATE_DIR');
  });
});
