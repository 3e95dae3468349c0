/**
 * Keeps secrets out of logs, the journal, notifications and commit messages: the values of
 * environment variables whose names say they are secret, debussy's own patterns (token formats,
 * private keys, URL credentials, `Authorization`/`Cookie` headers, assignments, flags and
 * credential-file lines under a secret's name: token-formats.ts, value-spots.ts) and the vendor
 * formats of secretlint's recommended rules (vendor-rules.ts). Everything is compiled once, and a
 * candidate scan (candidates.ts) runs only the families that can match, so a redactor is cheap
 * enough to run on every line. The forms it must catch are in test/fixtures/secrets/corpus.ts.
 */
import { findCandidates, NOTHING, type Candidates } from './candidates.js';
import { classifySecretName, isSecretEnvName } from './secret-names.js';
import { BEARER, ENCODED_PEM, isEncodedPrivateKey, PEM_TAIL, redactedUrlCredentials, TOKEN_PATTERNS, URL_CREDENTIALS, WEBHOOK } from './token-formats.js';
import { redactAtSpots } from './value-spots.js';
import { vendorRanges } from './vendor-rules.js';

export type Redactor = (text: string) => string;

export const REDACTED = '[REDACTED]';

/** Shorter values are too likely to appear by chance ("true", "1234") to be worth hiding. */
const MIN_SECRET_VALUE_LENGTH = 6;

/** A family of patterns replaced by one regex, run when the candidate scan saw a chance of a match. */
interface Family {
  seen: (candidates: Candidates) => boolean;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

/** The families in the order they run, each on the previous one's output. */
function families(): Family[] {
  return [
    { seen: (c) => c.token, pattern: new RegExp(TOKEN_PATTERNS.join('|'), 'g'), replace: () => REDACTED },
    { seen: (c) => c.pemTail, pattern: new RegExp(PEM_TAIL, 'g'), replace: () => REDACTED },
    { seen: (c) => c.encodedPem, pattern: new RegExp(ENCODED_PEM, 'g'), replace: (match) => (isEncodedPrivateKey(match) ? REDACTED : match) },
    { seen: (c) => c.webhook, pattern: new RegExp(WEBHOOK, 'g'), replace: (_match, host = '') => `${host}${REDACTED}` },
    { seen: (c) => c.auth, pattern: new RegExp(BEARER, 'g'), replace: (_match, scheme = '') => `${scheme} ${REDACTED}` },
    {
      seen: (c) => c.url,
      pattern: new RegExp(URL_CREDENTIALS, 'g'),
      replace: (_match, scheme = '', user = '', password?: string) => redactedUrlCredentials(scheme, user, password, REDACTED),
    },
  ];
}

/**
 * The text after a family's replacements, and the candidates in it. A replacement can join the
 * text around it into a new match for a later family (a PEM block inside a URL's password), so a
 * changed text is scanned again; an unchanged one keeps its candidates.
 */
function rescanIfChanged(before: string, after: string, seen: Candidates): [string, Candidates] {
  return after === before ? [before, seen] : [after, findCandidates(after)];
}

/** `text` with each range (possibly overlapping) replaced by REDACTED. */
function redactRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = '';
  let copied = 0;
  for (const [start, end] of sorted) {
    if (end <= copied) continue;
    out += text.slice(copied, Math.max(start, copied)) + (start >= copied ? REDACTED : '');
    copied = end;
  }
  return out + text.slice(copied);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The secret-looking environment variables: name to value, longest values first. */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): Array<[name: string, value: string]> {
  const found: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_VALUE_LENGTH) continue;
    if (isSecretEnvName(name)) found.push([name, value]);
  }
  // Longest first, so a value that contains another is replaced whole.
  return found.sort((a, b) => b[1].length - a[1].length);
}

export function createRedactor(env: Readonly<Record<string, string | undefined>> = process.env): Redactor {
  const secrets = secretEnvValues(env);
  const nameOf = new Map<string, string>();
  for (const [name, value] of secrets) if (!nameOf.has(value)) nameOf.set(value, name);
  const envPattern = nameOf.size > 0 ? new RegExp([...nameOf.keys()].map(escapeRegExp).join('|'), 'g') : undefined;
  const envReplacement = (value: string): string => `[REDACTED:${nameOf.get(value) ?? 'ENV'}]`;
  const patternFamilies = families();

  return (text: string): string => {
    if (text === '') return text;
    // Environment values first: their replacement names the variable, which helps a reader.
    let out = envPattern ? text.replace(envPattern, envReplacement) : text;
    // The other families run in this order, each on the previous one's output, and only where the
    // candidate scan saw a chance of a match: on a long tool output, scanning is most of the cost.
    let seen = findCandidates(out);
    if (seen === NOTHING) return out;
    for (const family of patternFamilies) {
      if (family.seen(seen)) [out, seen] = rescanIfChanged(out, out.replace(family.pattern, family.replace), seen);
    }
    if (seen.spots.length > 0) out = redactAtSpots(out, seen.spots, seen.spotKinds, REDACTED);
    // The vendor rules last: debussy's own patterns keep more of a line readable (a URL's host, a
    // name), and what they hid no vendor rule matches again. No scan after the values' redaction:
    // `[REDACTED]` starts no vendor's token, so the triggers seen before it still cover every match.
    if (seen.vendor.size > 0) out = redactRanges(out, vendorRanges(out, seen.vendor));
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


/**
 * Redacts every string inside a JSON-like value (journal events, notification payloads); a string
 * under a secret's key (`password`, `apiKey`, `sessionToken`: secret-names.ts) is replaced whole.
 */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      out[key] = typeof item === 'string' && item !== '' && classifySecretName(key) === 'secret' ? REDACTED : redactDeep(item, redact);
    }
    return out as T;
  }
  return value;
}
