/**
 * Which names say that their value is a secret: an assignment's (`DB_PASS=`, `"apiKey":`), a
 * header's (`X-Api-Key:`), a flag's (`--client-secret`), an object key's, an environment
 * variable's. One judgement for all of them, from the name's words: `STRIPE_SECRET_KEY`,
 * `stripeSecretKey` and `stripe-secret-key` are the words stripe, secret, key. Pure.
 */

/**
 * How a value under a name is judged:
 * - `secret`: hidden whatever it looks like (the value judgement still keeps references such as `$VAR`);
 * - `credential-like`: hidden when it looks like a credential (`"auth": "ZGVw..."` but not `auth: true`);
 * - `authorization`: an Authorization header's `<scheme> <credential>`;
 * - `cookie` / `set-cookie`: a Cookie header's values, a Set-Cookie header's first value.
 */
export type SecretNameKind = 'secret' | 'credential-like' | 'authorization' | 'cookie' | 'set-cookie';

/** Last words that make any name a secret's. */
const SECRET_WORDS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'credential', 'credentials', 'apikey', 'accesskey', 'secretkey', 'privatekey']);

/** Last words that are a secret's only after another word (`DB_PASS`, `db_pwd`; `pass` or `PWD` alone is not). */
const QUALIFIED_SECRET_WORDS = new Set(['pass', 'pwd']);

/**
 * Words before `key` that make it a secret key (`apiKey`, `AccountKey`, `signing_key`); `sortKey`,
 * `primary_key` and `cacheKey` are not.
 */
const KEY_QUALIFIERS = new Set([
  'access', 'account', 'admin', 'aes', 'api', 'app', 'auth', 'client', 'consumer', 'crypto', 'decryption', 'deploy', 'encryption', 'gpg', 'hmac', 'jwt',
  'license', 'live', 'master', 'pgp', 'private', 'restricted', 'root', 'rsa', 'secret', 'server', 'service', 'session', 'shared', 'signing', 'ssh',
  'storage', 'subscription', 'webhook', 'write',
]);

/** Query parameters whose values are credentials in URLs only (`?auth=` of ntfy, `&key=` of many APIs, `X-Amz-Signature=`). */
const QUERY_SECRET_WORDS = new Set(['auth', 'key', 'sig', 'signature', 'pass']);

/**
 * How every name that may be a secret's ends (its last word, or glued as in `PGPASSWORD`): a
 * necessary condition for all of the judgements below, which the redactor's candidate scan looks
 * for before a `:` or `=` (candidates.ts).
 */
export const NAME_KEYWORDS: readonly string[] = [
  'pass', 'passwd', 'password', 'passphrase', 'pwd', 'secret', 'token', 'key', 'credential', 'credentials', 'auth', 'authorization', 'cookie', 'pat', 'sig', 'signature',
];

/** Last words that name a secret's form, not another thing: `SECRET_KEY_BASE`, `client-key-data`, `token_value` are judged by the words before. */
export const FORM_WORDS: readonly string[] = ['base', 'value', 'data', 'b64', 'base64', 'hex', 'raw', 'bytes'];

/** A name's words, lower case: `STRIPE_SECRET_KEY`, `stripeSecretKey`, `--stripe-secret-key`, `APIKey` and `spring.datasource.password` split where a reader would. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** The name's last word (or the one before a form word) ends in a keyword: decided without splitting the name. */
const ENDS_IN_A_KEYWORD = new RegExp(`(?:${NAME_KEYWORDS.join('|')})(?:[^A-Za-z0-9]*(?:${FORM_WORDS.join('|')}))?[^A-Za-z0-9]*$`, 'i');

const CAPITALS = /^[A-Z0-9_]+$/;
/** `PGPASSWORD`, `GITHUBTOKEN`: a capitals name glued to its keyword. */
const GLUED_CAPITALS = /[A-Z0-9](?:PASSWORD|PASSWD|TOKEN|SECRET)$/;
/**
 * `dbpassword`, `clientsecret`, `accesstoken`: a word glued to a keyword; `mytoken` and
 * `nexttoken` are variables (a token of a parser), so a glued `token` needs a known kind before it.
 */
const GLUED_WORD = /^[a-z0-9]+(?:password|passwd|secret)$|^(?:access|refresh|auth|id|api|bearer|session|csrf|xsrf|oauth)token$/;

/**
 * How a value under `name` is judged, or undefined when the name is not a secret's. `inQuery`: the
 * name is a URL query parameter's (after `?` or `&`).
 */
export function classifySecretName(name: string, inQuery = false): SecretNameKind | undefined {
  // Most names (an event's `type`, `id`, `content`) end in no keyword: decided without splitting them.
  if (!ENDS_IN_A_KEYWORD.test(name)) return undefined;
  const key = inQuery ? `?${name}` : name;
  if (known.has(key)) return known.get(key);
  if (known.size >= KNOWN_LIMIT) known.clear();
  const kind = classifyWords(name, inQuery);
  known.set(ownCopy(key), kind);
  return kind;
}

/**
 * Names seen before and their kinds: code repeats its names (`token =` hundreds of times in a
 * compiler). Each key is a copy: a name is cut from the text it was found in, and V8 keeps a cut
 * of 13 characters or more as a view of that whole text, so a key cut from a stream line kept the
 * line (up to megabytes) alive (bench figure 2: 85 lines, 8.4 MB, over a 100 MB stream).
 */
const known = new Map<string, SecretNameKind | undefined>();
const KNOWN_LIMIT = 2048;

/** A string with only `text`'s own characters (JSON's round trip always builds a new one, exactly). */
function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function classifyWords(name: string, inQuery: boolean): SecretNameKind | undefined {
  const words = nameWords(name);
  if (words.length > 1 && FORM_WORDS.includes(words.at(-1) ?? '')) words.pop();
  const last = words.at(-1);
  if (last === undefined) return undefined;
  const previous = words.at(-2);
  if (SECRET_WORDS.has(last)) return 'secret';
  if (QUALIFIED_SECRET_WORDS.has(last) && previous !== undefined) return 'secret';
  if (last === 'key' && previous !== undefined && KEY_QUALIFIERS.has(previous)) return 'secret';
  // `OPENAI_KEY`: an environment variable's name, whose value is a key; in code a constant such as
  // `STORAGE_KEY = 'app-state'` is not, so the value must look like a credential.
  if (last === 'key' && previous !== undefined && CAPITALS.test(name)) return 'credential-like';
  // `GH_PAT`, `ADO_PAT`: personal access tokens; a lower-case `pat` is usually a pattern.
  if (last === 'pat' && previous !== undefined && CAPITALS.test(name)) return 'secret';
  if (GLUED_CAPITALS.test(name) || GLUED_WORD.test(last)) return 'secret';
  if (inQuery && QUERY_SECRET_WORDS.has(last)) return 'secret';
  if (last === 'auth') return 'credential-like';
  if (last === 'authorization') return 'authorization';
  if (last === 'cookie') return previous === 'set' ? 'set-cookie' : 'cookie';
  return undefined;
}

/** Environment variables whose values are secrets: named like one (`*_KEY`, `*_TOKEN`, `PGPASSWORD`, `DB_PASS`, `GH_PAT`, `APIKEY`). */
export function isSecretEnvName(name: string): boolean {
  if (/(?:^|_)(?:KEY|PASS|PAT|CREDENTIALS?|APIKEY)$/i.test(name)) return true;
  return classifySecretName(name) === 'secret' || /(?:PASSWORD|PASSWD|TOKEN|SECRET)$/i.test(name);
}
