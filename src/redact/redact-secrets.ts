/**
 * Keeps secrets out of logs, the journal, notifications and commit messages: well-known key and
 * token formats, `password=...` style assignments, and the values of environment variables whose
 * names say they are secret (`*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`). Everything is compiled
 * once per environment, so a redactor is cheap enough to run on every line.
 */

export type Redactor = (text: string) => string;

export const REDACTED = '[REDACTED]';

/** Environment variable names whose values are secrets. */
const SECRET_ENV_NAME = /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PAT|CREDENTIALS?|APIKEY)$/i;
/** Shorter values are too likely to appear by chance ("true", "1234") to be worth hiding. */
const MIN_SECRET_VALUE_LENGTH = 6;

/** Token formats recognisable on their own. Ordered: specific prefixes before generic ones. */
const TOKEN_PATTERNS: readonly string[] = [
  // PEM private keys, whole block; a block whose end was cut off (`head key.pem`) to the end of
  // the text.
  '-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)',
  // Anthropic, OpenAI (incl. sk-proj-), and other sk- keys.
  '\\bsk-ant-[A-Za-z0-9_-]{8,}',
  '\\bsk-[A-Za-z0-9_-]{16,}',
  // GitHub tokens.
  '\\bgh[pousr]_[A-Za-z0-9]{20,}',
  '\\bgithub_pat_[A-Za-z0-9_]{20,}',
  // npm tokens (an .npmrc `//registry/:_authToken=npm_...` line: `_authToken` is not a name the
  // assignment pattern takes).
  '\\bnpm_[A-Za-z0-9]{36}\\b',
  // Slack tokens.
  '\\bxox[abposr]-[A-Za-z0-9-]{10,}',
  // AWS access key ids.
  '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b',
  // Google API keys.
  '\\bAIza[0-9A-Za-z_-]{35}',
  // JWT-like: three base64url parts, the first a JSON header.
  '\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}',
];

/**
 * The end of a PEM private key whose start was cut off (a tail of some output): its base64 lines
 * (real or JSON-escaped newlines) and the END line. Kept apart from TOKEN_PATTERNS: a pattern that
 * may start at any word would be tried at every position of every text.
 */
const PEM_TAIL = '(?<=^|[^A-Za-z0-9+/=]|\\\\n)(?:[A-Za-z0-9+/=]{16,}(?:\\r?\\n|\\\\n))+-----END [A-Z ]*PRIVATE KEY-----';

/**
 * `Authorization: Bearer x`, `Basic x`. The scheme stays so the log still reads. A credential of
 * only lower-case letters is prose ("Basic authentication"), not a token.
 */
const BEARER = '\\b([Bb]earer|[Bb]asic)\\s+(?!\\[REDACTED)(?![a-z]+\\b)[A-Za-z0-9._~+/=-]{8,}';

/** The password in `scheme://user:password@host`. */
const URL_PASSWORD = '(\\b[a-z][a-z0-9+.-]*://[^\\s:/@]+:)(?!\\[REDACTED)[^\\s@/]+@';

/**
 * `password=...`, `"api_key": "..."`, `token: ...`. The name must end at a word boundary, so
 * `input_tokens: 512` and `max_tokens=100` are left alone, and so is prose: after a colon, an
 * unquoted value counts only with a digit or symbol in it (6+ characters) or at 16+ characters, so
 * `token: expired` and "the credentials: check the key" stay as written.
 */
const SECRET_NAME_ENDINGS =
  'password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?';

/**
 * Query parameters whose values are credentials in URLs only (`?auth=` of ntfy, `&key=` of many
 * APIs, `X-Amz-Signature=`): as assignments anywhere else these names are far too common.
 */
const QUERY_SECRET_NAMES = 'auth|key|sig|signature|pass';

const LOOKS_LIKE_A_VALUE = /^(?=.*[0-9_\-/+=.]).{6,}$|^.{16,}$/;

/** A character inside a JSON-escaped quoted value: anything but a quote, or an escape other than `\"`. */
const ESCAPED_CHAR = '(?:[^"\\\\\\n]|\\\\[^"\\n])';

/**
 * An assignment, matched from its separator (`:` or `=`), which `lastIndex` points at. The name
 * before it is checked by a lookbehind instead of being matched forwards: a pattern that starts
 * with the name (`\b(?:[A-Za-z0-9]+[_-])*password`) is tried at every word boundary of the text,
 * which was most of the redactor's cost. The lookbehind accepts exactly the names that pattern
 * did: a keyword, optionally after `segment_` / `segment-` parts, starting where a word starts
 * (so `mytoken` and `_token` are not names, `a_b_token` and `x-token` are); or, right after a
 * URL's `?` or `&`, a query parameter name. Group 1 is the gap between the name and the separator
 * (a quote, also JSON-escaped as in a raw stream line's `{\"password\": \"x\"}`; spaces), group 2
 * the value: quoted (also JSON-escaped, `\"...\"`, as in a raw stream line; a quote with no end
 * runs to the end of the line, or of the JSON string) or bare.
 */
const ASSIGNMENT_AT_SEPARATOR =
  `[:=](?:(?<=(?:^|[^A-Za-z0-9_])(?:[A-Za-z0-9]+[_-])*(?:${SECRET_NAME_ENDINGS})\\b((?:\\\\?["'])?\\s*)[:=])` +
  `|(?<=[?&](?:[A-Za-z0-9]+[_-])*(?:${QUERY_SECRET_NAMES})=))` +
  '\\s*(?!(?:\\\\?["\'])?\\[REDACTED)' +
  `(\\\\"(?:${ESCAPED_CHAR}*\\\\"|${ESCAPED_CHAR}+)|"(?:[^"\\n]*"|[^"\\n]+)|'(?:[^'\\n]*'|[^'\\n]+)|[^\\s,;&"'}\\]]+)`;

/** `token` to `[Tt][Oo][Kk][Ee][Nn]`: case-insensitive letters inside a case-sensitive pattern. */
function caseless(pattern: string): string {
  return pattern.replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
}

/**
 * One scan that finds where each family of patterns could match: a necessary condition for every
 * full pattern, cheap to test. Each alternative is a single character that is rare in logs (`-`,
 * `_`, `A`, `J`, `B`, `b`, `@`, `:`, `=`) with lookarounds for the family's literal, so the regex
 * engine rejects almost every position on its first character (a single regex of the literals
 * themselves, or one scan per family, costs several times more). A match consumes only that one
 * character and no two families share one, so a match of one family never hides another's.
 */
const CANDIDATE = new RegExp(
  [
    // TOKEN_PATTERNS: `-----BEGIN`, `sk-`, `xox?-`, `gh?_`, `github_pat_`, `npm_`, `AKIA`, `ASIA`, `AIza`, `eyJ`;
    // PEM_TAIL: `-----END`.
    '-(?=----BEGIN|----END [A-Z ]*PRIVATE)',
    '-(?<=sk-|xox[abposr]-)',
    '_(?<=gh[pousr]_|github_pat_|npm_)',
    'A(?=KIA|SIA|Iza)',
    'J(?<=eyJ)',
    // BEARER.
    '[Bb](?=earer|asic)',
    // URL_PASSWORD, without its scheme (the `@` is rarer than the `://`).
    '@(?<=://[^\\s:/@]+:[^\\s@/]+@)',
    // An assignment's separator, after a keyword (the name's other conditions are left to the full pattern).
    `[:=](?<=(?:${caseless(SECRET_NAME_ENDINGS)})(?:\\\\?["'])?\\s*[:=]|(?:${caseless(QUERY_SECRET_NAMES)})=)`,
  ].join('|'),
  'g',
);

/** Where the pattern families could match in a text; see CANDIDATE. */
interface Candidates {
  token: boolean;
  pemTail: boolean;
  auth: boolean;
  url: boolean;
  /** Positions of the `:` / `=` that may separate a secret name from its value, in order. */
  separators: number[];
}

function findCandidates(text: string): Candidates {
  const found: Candidates = { token: false, pemTail: false, auth: false, url: false, separators: [] };
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    const at = match.index;
    switch (text[at]) {
      case ':':
      case '=':
        found.separators.push(at);
        break;
      case '@':
        found.url = true;
        break;
      case 'B':
      case 'b':
        found.auth = true;
        break;
      default:
        if (text.startsWith('----END', at + 1)) found.pemTail = true;
        else found.token = true;
    }
  }
  return found;
}

/** What an assignment becomes: the value redacted (keeping its quotes), or undefined to keep prose as it is. */
function redactedAssignment(match: string, value: string, separator: string): string | undefined {
  const open = /^\\?["']/.exec(value)?.[0] ?? '';
  if (separator === ':' && open === '' && !LOOKS_LIKE_A_VALUE.test(value)) return undefined;
  const close = open !== '' && value.length > open.length && value.endsWith(open) ? open : '';
  return `${match.slice(0, match.length - value.length)}${open}${REDACTED}${close}`;
}

/**
 * Redacts the assignments whose separators are among `separators` (every separator an assignment
 * can have, ascending). Gives exactly what a global replace with the name-first pattern gave:
 * matches are taken left to right and never overlap, so a name must start after the previous
 * match ends. Checking where its keyword ends is enough: a match's value stops at a quote or just
 * before a character no name contains, so no name straddles the end of a match.
 */
function redactAssignments(text: string, separators: readonly number[], assignment: RegExp): string {
  let out = '';
  let copied = 0;
  let previousEnd = 0;
  for (const at of separators) {
    if (at < previousEnd) continue;
    assignment.lastIndex = at;
    const match = assignment.exec(text);
    if (match === null) continue;
    const [whole, gap = '', value = ''] = match;
    // The name must end after the previous match: `token=abc-password =x` has one assignment, not two.
    if (at - gap.length <= previousEnd) continue;
    previousEnd = at + whole.length;
    const replacement = redactedAssignment(whole, value, text[at] ?? '');
    if (replacement === undefined) continue;
    out += text.slice(copied, at) + replacement;
    copied = previousEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const redactAuthScheme = (_match: string, scheme: string): string => `${scheme} ${REDACTED}`;
const redactUrlPassword = (_match: string, prefix: string): string => `${prefix}${REDACTED}@`;

/**
 * The text after a family's replacements, and the candidates in it. A replacement can join the
 * text around it into a new match for a later family (a PEM block inside a URL's password), so a
 * changed text is scanned again; an unchanged one keeps its candidates.
 */
function rescanIfChanged(before: string, after: string, seen: Candidates): [string, Candidates] {
  return after === before ? [before, seen] : [after, findCandidates(after)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The secret-looking environment variables: name to value, longest values first. */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): Array<[name: string, value: string]> {
  const found: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_VALUE_LENGTH) continue;
    if (SECRET_ENV_NAME.test(name)) found.push([name, value]);
  }
  // Longest first, so a value that contains another is replaced whole.
  return found.sort((a, b) => b[1].length - a[1].length);
}

export function createRedactor(env: Readonly<Record<string, string | undefined>> = process.env): Redactor {
  const secrets = secretEnvValues(env);
  const nameOf = new Map<string, string>();
  for (const [name, value] of secrets) if (!nameOf.has(value)) nameOf.set(value, name);
  const envPattern = nameOf.size > 0 ? new RegExp([...nameOf.keys()].map(escapeRegExp).join('|'), 'g') : undefined;
  const tokens = new RegExp(TOKEN_PATTERNS.join('|'), 'g');
  const pemTail = new RegExp(PEM_TAIL, 'g');
  const bearer = new RegExp(BEARER, 'g');
  const urlPassword = new RegExp(URL_PASSWORD, 'gi');
  const assignment = new RegExp(ASSIGNMENT_AT_SEPARATOR, 'iy');

  const envReplacement = (value: string): string => `[REDACTED:${nameOf.get(value) ?? 'ENV'}]`;

  return (text: string): string => {
    if (text === '') return text;
    // Environment values first: their replacement names the variable, which helps a reader.
    let out = envPattern ? text.replace(envPattern, envReplacement) : text;
    // The other families run in this order, each on the previous one's output, and only where the
    // candidate scan saw a chance of a match: on a long tool output, scanning is most of the cost.
    let seen = findCandidates(out);
    if (seen.token) [out, seen] = rescanIfChanged(out, out.replace(tokens, REDACTED), seen);
    if (seen.pemTail) [out, seen] = rescanIfChanged(out, out.replace(pemTail, REDACTED), seen);
    if (seen.auth) [out, seen] = rescanIfChanged(out, out.replace(bearer, redactAuthScheme), seen);
    if (seen.url) [out, seen] = rescanIfChanged(out, out.replace(urlPassword, redactUrlPassword), seen);
    if (seen.separators.length > 0) out = redactAssignments(out, seen.separators, assignment);
    return out;
  };
}

// One cached redactor per environment object, rebuilt when its secret values change.
const cache = new WeakMap<object, { signature: string; redact: Redactor }>();

function signatureOf(env: Readonly<Record<string, string | undefined>>): string {
  return secretEnvValues(env)
    .map(([name, value]) => `${name}=${value}`)
    .join('\0');
}

/**
 * Redacts `text` against `env`. Convenient for one-off calls; on a hot path, build a redactor once
 * with createRedactor and reuse it.
 */
export function redactSecrets(text: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const signature = signatureOf(env);
  let entry = cache.get(env);
  if (entry?.signature !== signature) {
    entry = { signature, redact: createRedactor(env) };
    cache.set(env, entry);
  }
  return entry.redact(text);
}

/** Object keys whose string values are secrets whatever they look like (`password`, `apiKey`, `sessionToken`). */
const SECRET_KEY = /(?:password|passwd|secret|token|api[_-]?key|credentials?)$/i;

/**
 * Redacts every string inside a JSON-like value (journal events, notification payloads); a string
 * under a secret-looking key is replaced whole.
 */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      out[key] = typeof item === 'string' && item !== '' && SECRET_KEY.test(key) ? REDACTED : redactDeep(item, redact);
    }
    return out as T;
  }
  return value;
}
