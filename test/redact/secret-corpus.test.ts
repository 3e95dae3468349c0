import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/redact/index.js';
import { SECRET_FORMS } from '../fixtures/secrets/corpus.js';

const redact = createRedactor({});
const forms = SECRET_FORMS.map((form) => [form.family, form.name, form] as const);

/** A tool's output as the raw session log holds it: inside a stream-json line, its quotes and newlines escaped. */
function rawStreamLine(content: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] } });
}

describe('the secret corpus (test/fixtures/secrets/corpus.ts)', () => {
  it('names each form once', () => {
    expect(new Set(SECRET_FORMS.map((form) => form.name)).size).toBe(SECRET_FORMS.length);
  });

  it.each(forms)('%s: %s', (_family, _name, form) => {
    const out = redact(form.text);
    for (const secret of form.secrets) expect(out).not.toContain(secret);
    for (const kept of form.keeps) expect(out).toContain(kept);
    expect(out).toContain('[REDACTED');
    // Redacting again changes nothing: the journal redacts what the logs already did.
    expect(redact(out)).toBe(out);
  });

  it.each(forms)('%s: %s, inside a raw stream line', (_family, _name, form) => {
    const out = redact(rawStreamLine(form.text));
    for (const secret of form.secrets) {
      expect(out).not.toContain(secret);
      expect(out).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
    // Still one JSON line, and its text redacted as well as the text alone.
    const parsed = JSON.parse(out) as { message: { content: Array<{ content: string }> } };
    const content = parsed.message.content[0]?.content ?? '';
    for (const secret of form.secrets) expect(content).not.toContain(secret);
  });
});
