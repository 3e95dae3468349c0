import { describe, expect, it } from 'vitest';
import { findCandidates } from '../../src/redact/candidates.js';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintRuleCreator } from '@secretlint/types';
import { EXCLUDED_RULES, presetRuleIds, RULE_TRIGGERS, textSource, vendorRanges, vendorRules } from '../../src/redact/vendor-rules.js';
import { SECRET_FORMS } from '../fixtures/secrets/corpus.js';

const texts = SECRET_FORMS.map((form) => form.text);

describe('the vendor rules (secretlint-rule-preset-recommend)', () => {
  it('runs every rule of the preset or says why not', () => {
    const ids = presetRuleIds();
    const run = Object.keys(RULE_TRIGGERS);
    const excluded = Object.keys(EXCLUDED_RULES);
    expect(run.filter((id) => excluded.includes(id))).toEqual([]);
    // A new rule in an upgrade fails here until it has a trigger (or a reason to be left out).
    expect([...run, ...excluded].sort()).toEqual([...ids].sort());
    expect([...vendorRules().keys()].sort()).toEqual([...run].sort());
  });

  it.each(Object.keys(RULE_TRIGGERS))('%s catches a form of the corpus on its own', (id) => {
    const caught = SECRET_FORMS.filter((form) => {
      const ranges = vendorRanges(form.text, [id]);
      return form.secrets.some((secret) => {
        const start = form.text.indexOf(secret);
        return ranges.some(([from, to]) => from <= start && to >= start + secret.length);
      });
    });
    expect(caught.map((form) => form.name)).not.toEqual([]);
  });

  it.each(Object.keys(RULE_TRIGGERS))('%s runs only where its trigger is, and the trigger is in every text it matches', (id) => {
    const rule = vendorRules().get(id);
    expect(rule).toBeDefined();
    for (const text of texts) {
      const reported = rule?.scan(text) ?? [];
      if (reported.length > 0) expect(findCandidates(text).vendor.has(id)).toBe(true);
    }
  });

  it('drives the rules synchronously: no rule debussy runs returns a promise', () => {
    for (const creator of rules as SecretLintRuleCreator[]) {
      if (RULE_TRIGGERS[creator.meta.id] === undefined) continue;
      const handler = creator.create({ sharedOptions: {}, createTranslator: () => (messageId) => ({ message: String(messageId), messageId: String(messageId), data: undefined }), report: () => undefined, ignore: () => undefined }, {});
      for (const text of texts) expect(handler.file?.(textSource(text))).toBeUndefined();
    }
  });

  it('stretches a range that ends inside a token to the token’s end', () => {
    // The npm rule reports the user of `https://<user>:x-oauth-basic@github.com/` with its
    // length measured from the URL's start: stretched, the whole token is covered.
    const user = 'cTlN99mhWp708DwGw5HqXDgLVXZx3scB8fnvGNx6';
    const text = `https://${user}:x-oauth-basic@github.com/org/repo`;
    const ranges = vendorRanges(text, ['@secretlint/secretlint-rule-npm']);
    expect(ranges).toEqual([[0, 'https://'.length + user.length]]);
  });
});
