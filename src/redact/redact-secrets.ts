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
  // PEM private keys, whole block.
  '-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z ]*PRIVATE KEY-----',
  // Anthropic, OpenAI (incl. sk-proj-), and other sk- keys.
  '\\bsk-ant-[A-Za-z0-9_-]{8,}',
  '\\bsk-[A-Za-z0-9_-]{16,}',
  // GitHub tokens.
  '\\bgh[pousr]_[A-Za-z0-9]{20,}',
  '\\bgithub_pat_[A-Za-z0-9_]{20,}',
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
/** Literal pre-checks (a superset of what each full pattern matches). */
const MAY_HAVE_TOKEN = /-----BEGIN|sk-|gh[pousr]_|github_pat_|xox|AKIA|ASIA|AIza|eyJ/;
const MAY_HAVE_AUTH_SCHEME = /[Bb]earer|[Bb]asic/;
const MAY_HAVE_ASSIGNMENT = /passw|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential/i;

const LOOKS_LIKE_A_VALUE = /^(?=.*[0-9_\-/+=.]).{6,}$|^.{16,}$/;

const ASSIGNMENT =
  '\\b((?:[A-Za-z0-9]+[_-])*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?))\\b(["\']?\\s*[:=]\\s*)(?!["\']?\\[REDACTED)("[^"\\n]*"|\'[^\'\\n]*\'|[^\\s,;&"\'}\\]]+)';

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
  const bearer = new RegExp(BEARER, 'g');
  const urlPassword = new RegExp(URL_PASSWORD, 'gi');
  const assignment = new RegExp(ASSIGNMENT, 'gi');

  return (text: string): string => {
    if (text === '') return text;
    let out = text;
    // Environment values first: their replacement names the variable, which helps a reader.
    if (envPattern) out = out.replace(envPattern, (value) => `[REDACTED:${nameOf.get(value) ?? 'ENV'}]`);
    // Each full pattern runs only where a cheap literal test says it could match: on a long tool
    // output the patterns' backtracking is most of the cost of writing a log.
    if (MAY_HAVE_TOKEN.test(out)) out = out.replace(tokens, REDACTED);
    if (MAY_HAVE_AUTH_SCHEME.test(out)) out = out.replace(bearer, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    if (out.includes('://')) out = out.replace(urlPassword, (_m, prefix: string) => `${prefix}${REDACTED}@`);
    if (!MAY_HAVE_ASSIGNMENT.test(out)) return out;
    out = out.replace(assignment, (match: string, name: string, separator: string, value: string) => {
      if (separator.includes(':') && !/^["']/.test(value) && !LOOKS_LIKE_A_VALUE.test(value)) return match;
      const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
      return `${name}${separator}${quote}${REDACTED}${quote}`;
    });
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
