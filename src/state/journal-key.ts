/**
 * debussy's per-user key, which seals the records it writes (journal-seal.ts). It lives outside
 * every work tree, in the user's state directory, and only ever in that file: never in an
 * environment, a prompt, a journal or any output. A same-user process can still read it; the seal
 * makes a forged record something to steal a key for, not something a line of text appended to a
 * journal produces (docs/decisions.md).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { StateError } from '../errors/index.js';
import { writeFailureReason } from './ndjson.js';

/** Overrides the directory (tests, or a read-only home). */
export const STATE_DIR_VAR = 'DEBUSSY_STATE_DIR';
const KEY_FILE = 'journal.key';
const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}$/;

export type UsableKey = { ok: true; key: Buffer; file: string };
export type JournalKey = UsableKey | { ok: false; file: string; problem: string };

/** Where debussy keeps per-user state: $DEBUSSY_STATE_DIR, else the platform's customary place. Pure. */
export function userStateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const override = env[STATE_DIR_VAR];
  if (override) return resolve(override);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'debussy');
  if (platform === 'win32') return join(env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : join(home, 'AppData', 'Local'), 'debussy');
  // The XDG base directory spec: a relative XDG_STATE_HOME is invalid and ignored.
  return join(env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(home, '.local', 'state'), 'debussy');
}

export function journalKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(userStateDir(env, process.platform, homedir()), KEY_FILE);
}

function readKey(file: string): JournalKey {
  const text = readFileSync(file, 'utf8').trim();
  if (!KEY_TEXT.test(text)) return { ok: false, file, problem: `${file} is not a debussy key (64 hex digits expected)` };
  // Made 0600; put back if something widened it (other users must not seal records as this one).
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    try {
      chmodSync(file, 0o600);
    } catch {
      /* best effort: the key still works */
    }
  }
  return { ok: true, key: Buffer.from(text, 'hex'), file };
}

/** Makes the key: written whole under a temporary name, then linked into place, so a racing process reads one key or none. */
function createKey(file: string, dir: string): JournalKey {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  return readKey(file);
}

const loaded = new Map<string, JournalKey>();

/** The key, made on first use; read once per process. Never throws: a key that cannot be had is a problem to report. */
export function journalKey(env: NodeJS.ProcessEnv = process.env): JournalKey {
  const file = journalKeyFile(env);
  const known = loaded.get(file);
  if (known) return known;
  let key: JournalKey;
  try {
    key = readKey(file);
  } catch (error) {
    const missing = ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
    try {
      key = missing ? createKey(file, dirname(file)) : { ok: false, file, problem: `cannot read ${file} (${writeFailureReason(error)})` };
    } catch (createError) {
      key = { ok: false, file, problem: `cannot create ${file} (${writeFailureReason(createError)})` };
    }
  }
  loaded.set(file, key);
  return key;
}

/** The key a run needs to seal what it records; one clear error when there is none. */
export function requireJournalKey(env: NodeJS.ProcessEnv = process.env): UsableKey {
  const key = journalKey(env);
  if (key.ok) return key;
  throw new StateError('E_JOURNAL_KEY', `debussy's key, which seals the completions it records, is not usable: ${key.problem}`, {
    exitKind: 'prerequisites',
    hint: `Make ${dirname(key.file)} a writable directory (a bad key file: delete it, debussy makes a new one), or set ${STATE_DIR_VAR} to a writable directory outside the project.`,
  });
}
