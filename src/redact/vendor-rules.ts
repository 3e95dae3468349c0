/**
 * Vendor token formats from a maintained set: the rules of secretlint's recommended preset
 * (@secretlint/secretlint-rule-preset-recommend), driven synchronously through the documented rule
 * API (`create(context).file(source)`, `context.report({ range })`) over a text instead of a file.
 * Each rule scans the whole text, so a rule runs only where the candidate scan saw its trigger: a
 * necessary condition for any of its matches (a prefix such as `glpat-` or `hf_`), written in the
 * candidate scan's style (one rare character, lookarounds). A rule with no trigger here fails the
 * tests, so an upgrade that adds one cannot go unnoticed.
 */
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { TriggerSpec } from './trigger.js';
import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintRuleReportHandler, SecretLintSourceCode } from '@secretlint/types';

/** Rules of the preset debussy leaves out, and why. */
export const EXCLUDED_RULES: Readonly<Record<string, string>> = {
  '@secretlint/secretlint-rule-aws':
    "reports a secret access key's range from the start of its name with the key's length, which would hide the name and leave the key's end; debussy's names (`*_secret_access_key`) and AKIA/ASIA pattern cover it",
  '@secretlint/secretlint-rule-gcp': 'judges whole files by their extension (a .json service account, a .p12 it reads from disk); the private key inside is a PEM block, which debussy hides',
  '@secretlint/secretlint-rule-basicauth': 'reports the whole URL, host included, and skips passwords that look like placeholders; debussy hides the password of any scheme, also after an empty user',
  '@secretlint/secretlint-rule-database-connection-string': 'as basicauth, for mongodb/mysql/postgres URLs',
  '@secretlint/secretlint-rule-filter-comments': 'a filter, not a scanner: a text saying `secretlint-disable` would switch rules off',
  '@secretlint/secretlint-rule-databricks':
    'no character of a `dapi...` token is rare enough to find it by: searching every text for `dapi` cost 16-19% of the candidate scan; `DATABRICKS_TOKEN=dapi...` is still caught by its name',
};

/**
 * For each rule debussy runs: where any match of it must start (trigger.ts): its
 * prefix, and the start of its body, no stricter than the rule itself.
 */
export const RULE_TRIGGERS: Readonly<Record<string, readonly TriggerSpec[]>> = {
  '@secretlint/secretlint-rule-privatekey': [{ characters: '-', after: '----BEGIN' }],
  '@secretlint/secretlint-rule-npm': [
    { characters: '_', before: 'npm_', after: '[A-Za-z0-9_]{36}' },
    { characters: '@', before: ':x-oauth-basic@' },
  ],
  '@secretlint/secretlint-rule-slack': [
    { characters: '-', before: '(?:xox[bpaor]|xapp)-', after: '[A-Za-z0-9]+-[A-Za-z0-9]' },
    { characters: ':', after: '//[Hh][Oo][Oo][Kk][Ss]\\.[Ss][Ll][Aa][Cc][Kk]\\.' },
  ],
  '@secretlint/secretlint-rule-sendgrid': [{ characters: '.', before: 'SG\\.', after: '\\w' }],
  '@secretlint/secretlint-rule-shopify': [{ characters: '_', before: 'shp(?:pa|ca|at|ss)_', after: '[a-zA-Z0-9]{32}' }],
  '@secretlint/secretlint-rule-github': [
    { characters: '_', before: 'gh[pousr]_', after: '[A-Za-z0-9_]{36}' },
    { characters: '_', before: 'github_pat_', after: '[A-Za-z0-9_]{82}' },
  ],
  '@secretlint/secretlint-rule-gitlab': [{ characters: '-', before: 'glpat-', after: '[A-Za-z0-9_-]{20}' }],
  '@secretlint/secretlint-rule-grafana': [
    { characters: '_', before: 'glc_', after: '[A-Za-z0-9+/]{32}' },
    { characters: '_', before: 'glsa_', after: '[A-Za-z0-9]{32}_' },
  ],
  '@secretlint/secretlint-rule-openai': [
    { characters: '-', before: 'sk-(?:proj|svcacct|admin)-' },
    { characters: 'J', before: 'T3BlbkFJ' },
  ],
  '@secretlint/secretlint-rule-anthropic': [{ characters: '-', before: 'sk-ant-', after: 'api0' }],
  '@secretlint/secretlint-rule-groq': [{ characters: '_', before: 'gsk_', after: '[a-zA-Z0-9]{52}' }],
  '@secretlint/secretlint-rule-huggingface': [{ characters: '_', before: 'hf_', after: '[a-zA-Z]{34}' }],
  '@secretlint/secretlint-rule-linear': [{ characters: '_', before: 'lin_api_', after: '[a-zA-Z0-9_]{32}' }],
  '@secretlint/secretlint-rule-notion': [{ characters: '_', before: 'ntn_', after: '[0-9]{11}' }],
  '@secretlint/secretlint-rule-1password': [{ characters: '_', before: 'ops_', after: 'ey' }],
  '@secretlint/secretlint-rule-hashicorp-vault': [{ characters: '.', before: 'hv[sbr]\\.', after: '[A-Za-z0-9_-]{90}' }],
  '@secretlint/secretlint-rule-vercel': [{ characters: '_', before: 'vc[pciark]_', after: '[A-Za-z0-9]{20}' }],
  '@secretlint/secretlint-rule-docker': [{ characters: '_', before: 'dckr_pat_', after: '[a-zA-Z0-9_-]{27}' }],
  '@secretlint/secretlint-rule-figma': [{ characters: '_', before: 'figd_', after: '[A-Za-z0-9_-]{40}' }],
};

type Range = readonly [start: number, end: number];

export interface VendorRule {
  id: string;
  /** The ranges the rule reports in `text`. */
  scan(text: string): Range[];
}

/** A source code object for a text with no file: the fields a rule reads. */
export function textSource(content: string): SecretLintSourceCode {
  const indexToPosition = (index: number) => {
    const before = content.slice(0, index);
    const line = before.split('\n').length;
    return { line, column: index - (before.lastIndexOf('\n') + 1) };
  };
  const positionToIndex = (position: { line: number; column: number }) => {
    let index = 0;
    for (let line = 1; line < position.line; line++) index = content.indexOf('\n', index) + 1;
    return index + position.column;
  };
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    indexToPosition,
    positionToIndex,
    rangeToLocation: ([start, end]) => ({ start: indexToPosition(start), end: indexToPosition(end) }),
    locationToRange: (location) => [positionToIndex(location.start), positionToIndex(location.end)],
  };
}

function createVendorRule(creator: SecretLintRuleCreator): VendorRule {
  let found: Range[] = [];
  const context: SecretLintRuleContext = {
    sharedOptions: {},
    // The message is never shown (it quotes the secret): only the range is used.
    createTranslator: () => (messageId) => ({ message: String(messageId), messageId: String(messageId), data: undefined }),
    report: (descriptor) => {
      found.push(descriptor.range);
    },
    ignore: () => undefined,
  };
  const handler: SecretLintRuleReportHandler = creator.create(context, {});
  return {
    id: creator.meta.id,
    scan(text) {
      found = [];
      try {
        const pending = handler.file?.(textSource(text));
        // The rules debussy runs are synchronous (a test checks); a later version's promise cannot be waited for here.
        if (pending instanceof Promise) pending.catch(() => undefined);
      } catch {
        // A rule that throws finds nothing; debussy's own patterns still run.
      }
      return found;
    },
  };
}

let loaded: ReadonlyMap<string, VendorRule> | undefined;

/** The preset's rules that debussy runs, by id; created once per process. */
export function vendorRules(): ReadonlyMap<string, VendorRule> {
  loaded ??= new Map(
    (presetRules as SecretLintRuleCreator[])
      .filter((creator) => RULE_TRIGGERS[creator.meta.id] !== undefined)
      .map((creator) => [creator.meta.id, createVendorRule(creator)]),
  );
  return loaded;
}

/** Every rule id in the preset (for the test that each is triggered or excluded). */
export function presetRuleIds(): string[] {
  return (presetRules as SecretLintRuleCreator[]).map((creator) => creator.meta.id);
}

/** The ranges of `text` that the rules in `ids` report, each stretched to the end of the token it ends in. */
export function vendorRanges(text: string, ids: Iterable<string>): Range[] {
  const rules = vendorRules();
  const ranges: Range[] = [];
  // The rules want a token to follow no letter, and in a raw stream line a line's first token
  // follows `\n`: they read the escapes as `\ ` (same length, so the ranges hold for the text).
  const input = text.includes('\\') ? text.replace(/\\[ntr]/g, '\\ ') : text;
  for (const id of ids) {
    for (const [start, end] of rules.get(id)?.scan(input) ?? []) {
      // A rule reports where its match is; some report less than the token (the range of a
      // capture group, measured from the match's start). Never leave a token's end visible.
      let stop = Math.min(Math.max(end, start), text.length);
      while (stop < text.length && /[A-Za-z0-9+/=_.~-]/.test(text[stop] ?? '')) stop++;
      if (stop > start) ranges.push([Math.max(0, start), stop]);
    }
  }
  return ranges;
}
