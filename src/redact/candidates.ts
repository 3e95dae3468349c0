/**
 * One scan that finds where each family of patterns could match: a necessary condition for every
 * full pattern, cheap to test. Each family's trigger is a single character that is rare in logs
 * (`-`, `_`, `A`, `J`, `B`, `@`, `:`, `=`, ...) with lookarounds for the family's literal; the scan
 * joins the triggers that share a character into one alternative, so the regex engine rejects
 * almost every position on its first character (a single regex of the literals themselves, or one
 * scan per family, costs several times more). At each hit, the families of that character test
 * their own trigger there: several may start at one character.
 */
import { NAME_KEYWORDS } from './secret-names.js';
import type { TriggerSpec } from './trigger.js';
import { RULE_TRIGGERS } from './vendor-rules.js';

function escapeCharacter(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/**
 * The ends of names the scan stops at before a `:` or `=`: secret-names.ts's keywords, and a `key`
 * followed by the form words of `SECRET_KEY_BASE` and `client-key-data` (the other form words after
 * a keyword, as in `token_value`, would make the scan stop at every `value:` of a text).
 */
const NAME_ENDINGS: readonly string[] = [...NAME_KEYWORDS, 'key_base', 'key-base', 'key_data', 'key-data'];

/**
 * `words` as one alternation that shares their endings (`pass|passwd|pwd` as `pass|(?:passw|p)d`),
 * each letter in either case: a lookbehind matches from the right, and at every `:` and `=` of a
 * text the engine would otherwise try each word in turn.
 */
export function caselessSuffixAlternation(words: readonly string[]): string {
  const byLast = new Map<string, string[]>();
  let empty = false;
  for (const word of words) {
    if (word === '') empty = true;
    else byLast.set(word.slice(-1), [...(byLast.get(word.slice(-1)) ?? []), word.slice(0, -1)]);
  }
  const parts = [...byLast].map(([last, rests]) => `${caselessSuffixAlternation(rests)}${/[a-z]/.test(last) ? `[${last.toUpperCase()}${last}]` : escapeCharacter(last)}`);
  if (parts.length === 0) return '';
  const alternation = parts.length === 1 ? (parts[0] ?? '') : `(?:${parts.join('|')})`;
  return empty ? `(?:${alternation})?` : alternation;
}

/**
 * Kinds of positions where a value may follow, each with a matcher in value-spots.ts: a `:` or `=`
 * after a name, a flag's first `-`, the first `:` of a `.pgpass` line.
 */
export type SpotKind = 'separator' | 'flag' | 'pgpass';

/** Families found by a whole-text replacement (redact-secrets.ts), by position (value-spots.ts), or by a vendor rule (its id). */
type FamilyName = 'token' | 'pemTail' | 'encodedPem' | 'webhook' | 'auth' | 'url' | SpotKind;
type Family = FamilyName | { vendorRule: string };

/**
 * Measured (CPU time of the scan over a transcript of this repository's files): each character a
 * trigger adds to the scan costs 4-20% (`L` 4.5%, `d` 19%), a separate search for a literal as much
 * (`LS0tLS1CRUdJTi` 8%, `dapi` 16%, `password` 20%), while a trigger on a character the scan
 * already stops at costs next to nothing. Hence the few, rare characters.
 */
interface Trigger extends TriggerSpec {
  family: Family;
}

const at = (family: Family, spec: TriggerSpec): Trigger => ({ family, ...spec });

const OWN_TRIGGERS: readonly Trigger[] = [
  // Token formats (token-formats.ts TOKEN_PATTERNS), each with the start of its body (so that
  // `gh?_` in ordinary code is no candidate): `-----BEGIN`, `sk-`, `xox?-`, `GOCSPX-`, `pypi-`,
  // `AGE-SECRET-KEY-`, `gh?_`, `github_pat_`, `npm_`, `sk_live_`, `whsec_`, `do?_v1_`, `AKIA`,
  // `ASIA`, `AIza`, `eyJ`, `ya29.`, a Telegram bot token's `<digits>:AA`.
  at('token', { characters: '-', after: '----BEGIN' }),
  at('token', { characters: '-', before: '(?:\\b|\\\\[ntr])sk-', after: '[A-Za-z0-9_-]{8}' }),
  at('token', { characters: '-', before: 'xox[abposr]-', after: '[A-Za-z0-9-]{10}' }),
  at('token', { characters: '-', before: 'GOCSPX-', after: '[A-Za-z0-9_-]{20}' }),
  at('token', { characters: '-', before: 'pypi-', after: 'AgE' }),
  at('token', { characters: '-', before: 'AGE-SECRET-KEY-', after: '1' }),
  at('token', { characters: '_', before: 'gh[pousr]_', after: '[A-Za-z0-9]{20}' }),
  at('token', { characters: '_', before: 'github_pat_', after: '[A-Za-z0-9_]{20}' }),
  at('token', { characters: '_', before: 'npm_', after: '[A-Za-z0-9]{36}' }),
  at('token', { characters: '_', before: '[rs]k_(?:live|test)_', after: '[A-Za-z0-9]{10}' }),
  at('token', { characters: '_', before: 'whsec_', after: '[A-Za-z0-9+/=]{20}' }),
  at('token', { characters: '_', before: 'do[por]_v1_', after: '[a-f0-9]{64}' }),
  at('token', { characters: 'A', after: 'KIA|SIA|Iza' }),
  at('token', { characters: 'J', before: 'eyJ' }),
  at('token', { characters: '.', before: 'ya29\\.' }),
  at('token', { characters: ':', before: '[0-9]:', after: 'AA', scan: 'after' }),
  at('pemTail', { characters: '-', after: '----END [A-Z ]*PRIVATE' }),
  // A PEM block in base64: `LS0tLS1CRUdJTi` is `-----BEGIN`.
  at('encodedPem', { characters: 'L', after: 'S0tLS1CRUdJTi' }),
  at('auth', { characters: 'Bb', after: 'earer|asic' }),
  // URL credentials, without the scheme (the `@` is rarer than the `://`): a password, or a user of 20+ characters.
  at('url', { characters: '@', before: '://(?:[^\\s/@:]*:[^\\s/@]+|[^\\s/@:]{20,})@' }),
  at('webhook', { characters: ':', after: '//(?:hooks\\.slack\\.com/|(?:[a-z]+\\.)?discord(?:app)?\\.com/api/webhooks/)' }),
  // An assignment's separator after a name's last word (secret-names.ts judges the whole name).
  at('separator', { characters: ':=', before: `${caselessSuffixAlternation(NAME_ENDINGS)}(?:\\\\*["'])?\\s*[:=]` }),
  // A flag that takes a secret (`--password X`, `--api-key X`), `-u user:password`, `--user
  // user:password`, mysql's `-pPASSWORD`.
  at('flag', {
    characters: '-',
    before: `(?:^|[\\s"'=])-`,
    after: `-?(?:[A-Za-z0-9]+-)*[A-Za-z0-9]*(?:${NAME_ENDINGS.join('|')})[ \\t]|u[ \\t]|-user[ \\t]|p[^\\s-]`,
    scan: 'both',
  }),
  // A .pgpass line, `host:port:database:user:password`, from its first `:`.
  at('pgpass', { characters: ':', after: '(?:[0-9]{1,5}|\\*):[^:\\s"\',]+:[^:\\s"\',]+:[^:\\s]' }),
];

const VENDOR_TRIGGERS: readonly Trigger[] = Object.entries(RULE_TRIGGERS).flatMap(([id, specs]) => specs.map((spec) => at({ vendorRule: id }, spec)));

/** A trigger's conditions after its character (`c(?<=...)(?=...)`): `which` of them, or both. */
function conditions({ before, after }: TriggerSpec, which: 'before' | 'after' | 'both'): string {
  return `${before === undefined || which === 'after' ? '' : `(?<=${before})`}${after === undefined || which === 'before' ? '' : `(?=${after})`}`;
}

/** Each character's families, with each one's own test to make where the scan stopped. */
const BY_CHARACTER = new Map<string, Array<{ family: Family; here: RegExp; trigger: Trigger }>>();
for (const trigger of [...OWN_TRIGGERS, ...VENDOR_TRIGGERS]) {
  for (const c of trigger.characters) {
    const list = BY_CHARACTER.get(c) ?? [];
    list.push({ family: trigger.family, here: new RegExp(`${escapeCharacter(c)}${conditions(trigger, 'both')}`, 'y'), trigger });
    BY_CHARACTER.set(c, list);
  }
}

/**
 * The scan: for each character, its families' conditions, the lookbehinds joined into one and the
 * lookaheads into one (the engine tries a character's alternatives one after the other).
 */
function scanPattern(): string {
  return [...BY_CHARACTER]
    .map(([c, families]) => {
      const behind = new Set<string>();
      const ahead = new Set<string>();
      const both = new Set<string>();
      for (const { trigger } of families) {
        const scan = trigger.scan ?? (trigger.before === undefined ? 'after' : 'before');
        if (scan === 'both') both.add(conditions(trigger, 'both'));
        else if (scan === 'before') behind.add(trigger.before ?? '');
        else ahead.add(trigger.after ?? '');
      }
      const any = [...(behind.size > 0 ? [`(?<=${[...behind].join('|')})`] : []), ...(ahead.size > 0 ? [`(?=${[...ahead].join('|')})`] : []), ...both];
      return `${escapeCharacter(c)}(?:${any.join('|')})`;
    })
    .join('|');
}

const CANDIDATE = new RegExp(scanPattern(), 'g');

/** Where the pattern families could match in a text; see CANDIDATE. */
export interface Candidates {
  token: boolean;
  pemTail: boolean;
  encodedPem: boolean;
  webhook: boolean;
  auth: boolean;
  url: boolean;
  /** Positions where a value may follow (ascending), and their kinds. */
  spots: number[];
  spotKinds: SpotKind[];
  /** The vendor rules (by id) whose triggers are in the text. */
  vendor: Set<string>;
}

function record(found: Candidates, family: Family, at: number): void {
  if (typeof family === 'object') found.vendor.add(family.vendorRule);
  else if (family === 'separator' || family === 'flag' || family === 'pgpass') {
    found.spots.push(at);
    found.spotKinds.push(family);
  } else found[family] = true;
}

/** What a text with no candidate at all has (most texts: an event's ids, names, short fields): shared, never changed. */
export const NOTHING: Candidates = Object.freeze({ token: false, pemTail: false, encodedPem: false, webhook: false, auth: false, url: false, spots: [], spotKinds: [], vendor: new Set<string>() });

export function findCandidates(text: string): Candidates {
  CANDIDATE.lastIndex = 0;
  let match = CANDIDATE.exec(text);
  if (match === null) return NOTHING;
  const found: Candidates = { token: false, pemTail: false, encodedPem: false, webhook: false, auth: false, url: false, spots: [], spotKinds: [], vendor: new Set() };
  for (; match !== null; match = CANDIDATE.exec(text)) {
    const at = match.index;
    for (const { family, here } of BY_CHARACTER.get(text[at] ?? '') ?? []) {
      here.lastIndex = at;
      if (here.test(text)) record(found, family, at);
    }
  }
  return found;
}

