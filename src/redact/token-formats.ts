/**
 * Secrets recognisable by their form alone, and the URL and header shapes that carry one: the
 * patterns debussy writes itself. The vendor formats of a maintained set (secretlint's recommended
 * rules) come on top of these (vendor-rules.ts); the forms here are the ones that set does not
 * cover, or covers only exactly (a token cut short, or of a length the vendor has not announced,
 * is still caught here).
 */

/**
 * Where a token may start: after no word character, or after an escape's (a raw stream line holds
 * a file's lines as `...\\nghp_...`, where `n` and `g` are both word characters). As fast as `\\b`
 * (an alternation `(?:\\b|(?<=\\\\n))` made the scan of a text four times slower).
 */
export const WORD_START = '(?<!(?<!\\\\)[A-Za-z0-9_])';

/** Token formats recognisable on their own, each replaced whole. Ordered: specific prefixes before generic ones. */
export const TOKEN_PATTERNS: readonly string[] = [
  // PEM private keys, whole block; a block whose end was cut off (`head key.pem`) to the end of
  // the text, or of the JSON string that holds it (a PEM body has no quotes; backslashes before a
  // quote are the string's own escaping, and stay).
  '-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[^"\\\\]|\\\\+[^"\\\\])*?(?:-----END [A-Z ]*PRIVATE KEY-----|(?=\\\\*"|$))',
  // Anthropic, OpenAI (incl. sk-proj-), and other sk- keys.
  `${WORD_START}sk-ant-[A-Za-z0-9_-]{8,}`,
  `${WORD_START}sk-[A-Za-z0-9_-]{16,}`,
  // Stripe secret, restricted and webhook-signing keys (`pk_` keys are public).
  `${WORD_START}[rs]k_(?:live|test)_[A-Za-z0-9]{10,}`,
  `${WORD_START}whsec_[A-Za-z0-9+/=]{20,}`,
  // GitHub tokens.
  `${WORD_START}gh[pousr]_[A-Za-z0-9]{20,}`,
  `${WORD_START}github_pat_[A-Za-z0-9_]{20,}`,
  // npm and PyPI tokens.
  `${WORD_START}npm_[A-Za-z0-9]{36}\\b`,
  `${WORD_START}pypi-AgE[A-Za-z0-9_-]{40,}`,
  // Slack tokens.
  `${WORD_START}xox[abposr]-[A-Za-z0-9-]{10,}`,
  // AWS access key ids.
  `${WORD_START}(?:AKIA|ASIA)[0-9A-Z]{16}\\b`,
  // Google API keys, OAuth client secrets and access tokens.
  `${WORD_START}AIza[0-9A-Za-z_-]{35}`,
  `${WORD_START}GOCSPX-[A-Za-z0-9_-]{20,}`,
  `${WORD_START}ya29\\.[A-Za-z0-9_-]{20,}`,
  // DigitalOcean tokens.
  `${WORD_START}do[por]_v1_[a-f0-9]{64}\\b`,
  // age secret keys.
  `${WORD_START}AGE-SECRET-KEY-1[0-9A-Z]{50,}`,
  // Telegram bot tokens (`<bot id>:AA...`, also inside `api.telegram.org/bot<token>/`).
  '\\d{8,10}:AA[A-Za-z0-9_-]{30,}',
  // JWT-like: three base64url parts, the first a JSON header.
  `${WORD_START}eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`,
];

/**
 * The end of a PEM private key whose start was cut off (a tail of some output): its base64 lines
 * (real or JSON-escaped newlines) and the END line. Kept apart from TOKEN_PATTERNS: a pattern that
 * may start at any word would be tried at every position of every text.
 */
export const PEM_TAIL = '(?<=^|[^A-Za-z0-9+/=\\\\]|\\\\n)(?:[A-Za-z0-9+/=]{16,}(?:\\r?\\n|\\\\n))+-----END [A-Z ]*PRIVATE KEY-----';

/**
 * A PEM block in base64 (`LS0tLS1CRUdJTi` is `-----BEGIN`), as a kubeconfig's `client-key-data`
 * or a Kubernetes secret holds a key: hidden when it decodes to a private key (a certificate's
 * `client-certificate-data` is public).
 */
export const ENCODED_PEM = `${WORD_START}LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}`;
export function isEncodedPrivateKey(base64: string): boolean {
  return /PRIVATE KEY/.test(Buffer.from(base64.slice(0, 80), 'base64').toString('latin1'));
}

/** Webhook URLs whose path is the credential (Slack, Discord): the host stays, the path goes. */
export const WEBHOOK = '(\\bhttps?://(?:hooks\\.slack\\.com/(?:services|workflows|triggers)/|(?:[a-z]+\\.)?discord(?:app)?\\.com/api/webhooks/))(?!\\[REDACTED)[A-Za-z0-9/_-]+';

/**
 * `Authorization: Bearer x`, `Basic x` anywhere. The scheme stays so the log still reads. A
 * credential of only lower-case letters is prose ("Basic authentication"), not a token.
 */
export const BEARER = `${WORD_START}([Bb]earer|[Bb]asic)\\s+(?!\\[REDACTED)(?![a-z]+\\b)[A-Za-z0-9._~+/=-]{8,}`;

/**
 * The credentials in `scheme://user:password@host`: the password (also with an empty user, as in
 * `redis://:password@host`), and a user that is itself a token (`https://<token>@github.com`, or
 * `<token>:x-oauth-basic`): 20+ characters with a digit in them. Matched from the `://`, which
 * the engine finds fast, rather than from a scheme, which could start at any letter.
 */
export const URL_CREDENTIALS = '(?<=[A-Za-z0-9+.-])(://)(?!\\[REDACTED)([^\\s:/@\\\\]*)(?::(?!\\[REDACTED)([^\\s@/\\\\]+))?@';
const TOKEN_AS_USER = /^(?=.*[0-9])[A-Za-z0-9_-]{20,}$/;

export function redactedUrlCredentials(scheme: string, user: string, password: string | undefined, redacted: string): string {
  const shownUser = TOKEN_AS_USER.test(user) ? redacted : user;
  return `${scheme}${shownUser}${password === undefined ? '' : `:${redacted}`}@`;
}
