/**
 * Whether a value under a secret's name is one to hide. A name says a secret may follow; the value
 * says whether one did: `password = getpass()`, `token: string`, `API_KEY=$API_KEY` and
 * `password: ${{ secrets.DB }}` name a secret without holding it, and hiding them would make logs
 * of ordinary code unreadable (the false positives are counted in test/redact/false-positives.test.ts).
 * Pure.
 */
import type { SecretNameKind } from './secret-names.js';

/** What separates the name from the value: `=`, `:`, or a space (`--token VALUE`). */
export type ValueSeparator = '=' | ':' | ' ';

/** Where a value stands. */
export interface ValuePlace {
  separator: ValueSeparator;
  /**
   * Spaces around an `=` (`token = nextToken`): code, where a bare word is a variable. Shell and
   * .env lines (`DB_PASS=hunter`) and query strings have none, and there a bare word is the value.
   */
  spaced: boolean;
}

/** An opening quote, also JSON-escaped (`\"`). */
const OPEN_QUOTE = /^\\*["']/;

/** After a colon, an unquoted value is prose (`token: expired`, `password: string`) unless it has a digit or symbol (6+ characters) or is long. */
const LOOKS_LIKE_A_VALUE = /^(?=.*[0-9_\-/+=.]).{6,}$|^.{16,}$/;

/** A reference to a secret kept elsewhere: `$VAR`, `${VAR}`, `$(cat f)`, `${{ secrets.X }}`, `{{ .Values.x }}`, `%VAR%`, `<your-token>`, `process.env.X`. */
const REFERENCE = /^(?:\$[{(A-Za-z_]|\{\{|%[A-Za-z_][A-Za-z0-9_]*%$|<[^<>]*>$|process\.env\b|os\.environ\b|ENV\[)/;

/** Code, not a value: a call or an index (`getpass()`, `os.getenv("X")`, `props[i]`), a keyword. */
const CODE = /^(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[([]|(?:await|new|this|self|typeof|void|function|lambda|require|import|null|undefined|None|nil|true|false|True|False)$)/;

/** A property path (`options.token`, `self.api_key`): code after `:` or a spaced `=`, a value after a bare `=` (`TOKEN=ya29.abc`). */
const PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** A word with no digit (`questionToken`, `collItem`): after a spaced `=`, a variable. */
const WORD = /^[A-Za-z_$]+$/;

/** After a spaced `=`, values shorter than this are code (`token = 7`, `lastToken = "<"`), not secrets. */
const MIN_BARE_VALUE_LENGTH = 4;

/** What a credential looks like on its own (for names that are not always a secret's, such as `auth`): no spaces, 8+ characters with a digit and a letter, or 16+. */
const CREDENTIAL = /^(?=[^\s]*[0-9])(?=[^\s]*[A-Za-z])[^\s]{8,}$|^[A-Za-z0-9+/=_.-]{16,}$/;

/** A value of only stars or x's: a mask, not a secret. */
const MASK = /^(?:\*+|x{3,}|X{3,}|\.{3}|…)$/;

/** `value` without its quotes (an unterminated quote keeps its text). */
export function unquote(value: string): { inner: string; quoted: boolean } {
  const open = OPEN_QUOTE.exec(value)?.[0] ?? '';
  if (open === '') return { inner: value, quoted: false };
  const closed = value.length >= open.length * 2 && value.endsWith(open);
  return { inner: value.slice(open.length, closed ? value.length - open.length : value.length), quoted: true };
}

/** Whether `value` (as written, quotes and all) under a name of `kind` is hidden. */
export function hidesValue(kind: Extract<SecretNameKind, 'secret' | 'credential-like'>, value: string, place: ValuePlace): boolean {
  const { inner, quoted } = unquote(value);
  if (inner === '' || REFERENCE.test(inner) || MASK.test(inner)) return false;
  if (kind === 'credential-like') return CREDENTIAL.test(inner);
  // In code (a spaced `=`) a quoted value this short is a literal (`lastToken = "<"`), not a secret.
  if (quoted) return !(place.spaced && place.separator === '=' && inner.length < MIN_BARE_VALUE_LENGTH);
  if (/^[{[(!/]/.test(inner) || CODE.test(inner)) return false;
  if ((place.spaced || place.separator === ':') && PATH.test(inner)) return false;
  if (place.separator === ':') return LOOKS_LIKE_A_VALUE.test(inner);
  return !(place.spaced && (WORD.test(inner) || inner.length < MIN_BARE_VALUE_LENGTH));
}
