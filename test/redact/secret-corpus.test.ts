import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/redact/index.js';
import { shellQuote } from '../../src/text/shell-quote.js';
import { SECRET_FORMS, SECRET_FORMS_NOT_CAUGHT, type SecretFamily } from '../fixtures/secrets/corpus.js';

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

  // A file's lines in a raw stream line: the form starts after an escaped newline (`...\nmysql -p...`),
  // where the `n` of the escape is a word character.
  it.each(forms)('%s: %s, on a later line of a raw stream line', (_family, _name, form) => {
    const out = redact(rawStreamLine(`$ cat notes\n${form.text}`));
    for (const secret of form.secrets) expect(out).not.toContain(secret);
  });

  // As a shell word: a command that prints it (`printf '%s\n' 'PASS='\''x'\'''`), quotes and all.
  it.each(forms)('%s: %s, shell-quoted in a command', (_family, _name, form) => {
    const command = `printf '%s\\n' ${shellQuote(form.text)}`;
    // Also as a Bash tool's input in a raw stream line, where each backslash is doubled.
    for (const text of [command, JSON.stringify({ command })]) {
      const out = redact(text);
      for (const secret of form.secrets) expect(out).not.toContain(secret);
    }
  });
});

/** How docs/recovery.md ("Redaction") counts each family. */
const FAMILY_WORDS: Record<SecretFamily, string> = {
  'env-file': '`.env` lines',
  shell: 'shell commands',
  json: 'JSON',
  yaml: 'YAML',
  'config-file': "credential files' lines",
  url: 'URLs',
  'cli-flag': 'flags',
  'http-header': 'headers',
  'vendor-token': 'bare vendor tokens',
  'private-key': 'private keys',
};

describe('docs/recovery.md, "Redaction", tells the corpus as it is', () => {
  const docs = readFileSync(new URL('../../docs/recovery.md', import.meta.url), 'utf8');
  const redaction = docs.slice(docs.indexOf('## Redaction'), docs.indexOf('\n## ', docs.indexOf('## Redaction') + 1));

  it('the number of forms, family by family', () => {
    const counts = Object.entries(FAMILY_WORDS).map(([family, words]) => `${SECRET_FORMS.filter((form) => form.family === family).length} ${words}`);
    expect(redaction.replace(/\s+/g, ' ')).toContain(`${SECRET_FORMS.length} forms (${counts.join(', ')})`);
  });

  /** Where the list of what is not caught names each form. */
  const LISTED_AS: Record<string, string> = {
    '.netrc password line': 'a `.netrc` line',
    'Databricks token, bare': 'a Databricks token',
    'a password in prose': 'in prose',
    'a secret under a name that says nothing': 'a name that says nothing',
  };

  it.each(SECRET_FORMS_NOT_CAUGHT.map((form) => [form.name, form] as const))('what is not caught is really not caught, and listed: %s', (name, form) => {
    expect(redact(form.text)).toContain(form.secret);
    const notCaught = redaction.slice(redaction.indexOf('**What is not caught**')).replace(/\s+/g, ' ');
    expect(LISTED_AS[name], 'a place in the list').toBeDefined();
    expect(notCaught).toContain(LISTED_AS[name]);
  });
});

