/**
 * Secrets that follow a name: `password=...`, `"apiKey": "..."`, `Authorization: token ...`,
 * `Cookie: a=...`, `--client-secret ...`, `-u user:...`, a `.pgpass` line. The
 * candidate scan gives the positions where one may start (a separator, a flag's dash); each is
 * matched there with a sticky pattern, and the name and value are judged by secret-names.ts and
 * secret-values.ts. Names are checked by a lookbehind from the separator instead of being matched
 * forwards: a pattern that starts with the name is tried at every word of the text, which was most
 * of the redactor's cost.
 */
import type { SpotKind } from './candidates.js';
import { classifySecretName } from './secret-names.js';
import { hidesValue, type ValuePlace } from './secret-values.js';

/** A character inside a JSON-escaped quoted value: anything but a quote or a backslash, or an escape (a quote ends the JSON string). */
const ESCAPED_CHAR = '(?:[^"\\\\\\n]|\\\\[^\\n])';

/**
 * A value: quoted (also JSON-escaped, `\"...\"` as in a raw stream line, or deeper, `\\\"...\\\"`
 * as a JSON string inside one; a quote with no end runs to the end of the line, or of the JSON
 * string) or bare (never past a backslash: in a raw line `\n` ends it). Never one already redacted.
 */
const VALUE =
  '(?!(?:\\\\*["\'])?\\[REDACTED)' +
  `((?<bs>\\\\+)(?<q>["'])(?:${ESCAPED_CHAR}*?\\k<bs>\\k<q>|${ESCAPED_CHAR}+)|"(?:[^"\\n]*"|[^"\\n]+)|'(?:[^'\\n]*'|[^'\\n]+)|[^\\s,;&"'})\\]\\\\]+)`;

/**
 * At a separator: the name before it (group 1, a run of name characters: `DB_PASS`,
 * `spring.datasource.password`, `X-Api-Key`, `_authToken`), the gap between (group 2, a quote, also
 * JSON-escaped as in `{\"password\": \"x\"}`, and spaces).
 */
const NAME_BEFORE = /(?::|=(?!=))(?<=(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)((?:\\*["'])?[ \t]*)[:=])/y;
/** After a separator: the value (group 1); `=>` (Ruby, PHP) counts as `=`. */
const VALUE_AFTER = new RegExp(`(?:(?<==)>)?[ \\t]*${VALUE}`, 'y');
/** After a header's separator: its opening quote (group 1) and the rest of its value, to the end of the line or the quote (group 2). */
const HEADER_VALUE = /[ \t]*(\\?["']?)(?!\[REDACTED)([^\n"'\\]*)/y;

/** At a flag: `-u`/`--user` and `user:` (group 1) and the password (group 2); mysql's `-p` and its password (group 3); a flag's name (group 4) and value (group 5). */
const FLAG = new RegExp(
  '(?:-u|--user)[ \\t]+(\\\\?["\']?[^\\s:"\'\\\\]*:)(?!\\[REDACTED)([^\\s"\'\\\\]+)' +
  '|(?<=\\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\\b[^\\n|;&]*\\s)-p(?!\\[REDACTED)([^\\s"\'\\\\-][^\\s"\'\\\\]*)' +
  '|--?([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)[ \\t]+(?!-)' +
  `(\\\\"(?:${ESCAPED_CHAR}*\\\\"|${ESCAPED_CHAR}+)|"[^"\\n]*"?|'[^'\\n]*'?|(?!\\[REDACTED)[^\\s"'<>|;&)]+)`,
  'y',
);

/** At a .pgpass line's first `:`: `host:port:database:user:` then the password (group 1), alone at the end of its line (also in a JSON string). */
const PGPASS = /(?<=(?:^|\n|\\n|["'])[ \t]*[^:\s#"'\\]+):(?:[0-9]{1,5}|\*):[^:\s"',]+:[^:\s"',]+:(?!\[REDACTED)([^\s:\\"']+)(?=[ \t]*(?:\r?\n|\\n|\\r|$|\\?["']))/y;

/** A change: text[start, end) becomes `replacement`; `nameEnd` is where the name it hangs on ended. */
export interface SpotRedaction {
  start: number;
  end: number;
  replacement: string;
  nameEnd: number;
}

/** `value` hidden, keeping its quotes (an unterminated quote keeps only its opening). */
function hiddenValue(value: string, redacted: string): string {
  const open = /^\\*["']/.exec(value)?.[0] ?? '';
  const close = open !== '' && value.length >= open.length * 2 && value.endsWith(open) ? open : '';
  return `${open}${redacted}${close}`;
}

/** An Authorization header's value: the scheme stays (`token`, `Bearer`, `Basic`), the credential goes. */
function hiddenAuthorization(value: string, redacted: string): string | undefined {
  const match = /^(?:([A-Za-z][A-Za-z0-9_-]*)([ \t]+))?(\S+)(.*)$/.exec(value);
  if (match === null) return undefined;
  const [, scheme = '', space = '', credential = '', rest = ''] = match;
  if (credential.startsWith('[REDACTED')) return undefined;
  if (scheme === '' ? !hidesValue('secret', credential, { separator: ':', spaced: true }) : credential.length < 4) return undefined;
  return `${scheme}${space}${redacted}${rest}`;
}

/** A Cookie header's values (every one: any may be a session), or a Set-Cookie header's first (the rest are attributes). */
function hiddenCookies(value: string, firstOnly: boolean, redacted: string): string | undefined {
  let count = 0;
  const out = value.replace(/(^|;[ \t]*)([^=;\s]+)=([^;]*)/g, (whole, lead: string, name: string, cookie: string) => {
    if ((firstOnly && count++ > 0) || cookie.trim() === '' || cookie.startsWith('[REDACTED')) return whole;
    return `${lead}${name}=${redacted}`;
  });
  return out === value ? undefined : out;
}

function atSeparator(text: string, at: number, redacted: string): SpotRedaction | undefined {
  NAME_BEFORE.lastIndex = at;
  const named = NAME_BEFORE.exec(text);
  if (named === null) return undefined;
  const [, run = '', gap = ''] = named;
  const nameEnd = at - gap.length;
  // In a raw stream line a name starts a line as `\nDB_PASS`: the `n` is the escape's, not the name's.
  const name = text[nameEnd - run.length - 1] === '\\' && /^[ntr]./.test(run) ? run.slice(1) : run;
  const before = text[nameEnd - name.length - 1];
  const kind = classifySecretName(name, before === '?' || before === '&');
  if (kind === undefined) return undefined;
  if (kind === 'authorization' || kind === 'cookie' || kind === 'set-cookie') {
    HEADER_VALUE.lastIndex = at + 1;
    const header = HEADER_VALUE.exec(text);
    if (header === null) return undefined;
    const [whole, quote = '', value = ''] = header;
    const hidden = kind === 'authorization' ? hiddenAuthorization(value, redacted) : hiddenCookies(value, kind === 'set-cookie', redacted);
    if (hidden === undefined) return undefined;
    return { start: at + 1, end: at + 1 + whole.length, replacement: `${whole.slice(0, whole.length - quote.length - value.length)}${quote}${hidden}`, nameEnd };
  }
  VALUE_AFTER.lastIndex = at + 1;
  const valued = VALUE_AFTER.exec(text);
  if (valued === null) return undefined;
  const [whole, value = ''] = valued;
  const place: ValuePlace = { separator: text[at] === ':' ? ':' : '=', spaced: gap !== '' || /^>?[ \t]/.test(whole) };
  if (!hidesValue(kind, value, place)) return { start: at + 1, end: at + 1 + whole.length, replacement: whole, nameEnd };
  return { start: at + 1, end: at + 1 + whole.length, replacement: `${whole.slice(0, whole.length - value.length)}${hiddenValue(value, redacted)}`, nameEnd };
}

function atFlag(text: string, at: number, redacted: string): SpotRedaction | undefined {
  FLAG.lastIndex = at;
  const match = FLAG.exec(text);
  if (match === null) return undefined;
  const [whole, userPrefix, password, mysqlPassword, flag, value] = match;
  const end = at + whole.length;
  if (flag !== undefined && value !== undefined) {
    const kind = classifySecretName(flag);
    if ((kind !== 'secret' && kind !== 'credential-like') || !hidesValue(kind, value, { separator: ' ', spaced: false })) return undefined;
    return { start: end - value.length, end, replacement: hiddenValue(value, redacted), nameEnd: at };
  }
  if (userPrefix !== undefined && password !== undefined) {
    // `docker run -u 1000:1000` is a user and a group, not a password.
    if (password.length < 4 || /^[0-9]+$/.test(password)) return undefined;
    const quote = /^\\?["']/.exec(userPrefix)?.[0] ?? '';
    const closes = quote !== '' && password.endsWith(quote);
    return { start: end - password.length, end, replacement: `${redacted}${closes ? quote : ''}`, nameEnd: at };
  }
  if (mysqlPassword !== undefined) return { start: end - mysqlPassword.length, end, replacement: redacted, nameEnd: at };
  return undefined;
}

function atPattern(pattern: RegExp, text: string, at: number, redacted: string): SpotRedaction | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  const secret = match?.[1];
  if (match === null || secret === undefined) return undefined;
  const end = at + match[0].length;
  return { start: end - secret.length, end, replacement: redacted, nameEnd: at };
}

function redactionAt(text: string, at: number, kind: SpotKind, redacted: string): SpotRedaction | undefined {
  switch (kind) {
    case 'separator':
      return atSeparator(text, at, redacted);
    case 'flag':
      return atFlag(text, at, redacted);
    case 'pgpass':
      return atPattern(PGPASS, text, at, redacted);
  }
}

/**
 * Redacts the values at `spots` (every position a value can follow, ascending). Matches are taken
 * left to right and never overlap, so a name must end after the previous match: a match's value
 * stops at a quote or just before a character no name contains, so `token=abc-password =x` is one
 * assignment, not two.
 */
export function redactAtSpots(text: string, spots: readonly number[], kinds: readonly SpotKind[], redacted: string): string {
  let out = '';
  let copied = 0;
  let previousEnd = -1;
  for (let i = 0; i < spots.length; i++) {
    const at = spots[i] ?? 0;
    const kind = kinds[i] ?? 'separator';
    if (at < previousEnd) continue;
    const found = redactionAt(text, at, kind, redacted);
    if (found === undefined || found.nameEnd <= previousEnd) continue;
    previousEnd = found.end;
    if (found.replacement === text.slice(found.start, found.end)) continue;
    out += text.slice(copied, found.start) + found.replacement;
    copied = found.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
