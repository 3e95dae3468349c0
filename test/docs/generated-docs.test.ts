import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, CONFIG_SCHEMA, displayDefault } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { GENERATED, GENERATED_FILES, replaceGenerated } from '../../scripts/update-docs.js';

describe('generated docs', () => {
  it.each(GENERATED)('$file is current (run `npm run docs` if this fails)', ({ file, marker, render }) => {
    const text = readFileSync(file, 'utf8');
    expect(replaceGenerated(text, marker, render())).toBe(text);
  });

  it.each(GENERATED_FILES)('$file is current (run `npm run docs` if this fails)', ({ file, render }) => {
    expect(readFileSync(file, 'utf8')).toBe(render());
  });

  it('the configuration reference lists every key with its default and flag', () => {
    const text = readFileSync('docs/configuration.md', 'utf8');
    for (const key of CONFIG_KEYS) {
      const def = CONFIG_SCHEMA[key];
      const row = text.split('\n').find((line) => line.startsWith(`| \`${key}\` |`));
      expect(row, key).toBeDefined();
      expect(row).toContain(`\`${displayDefault(def)}\``);
      if ('flag' in def) expect(row).toContain(def.flag);
    }
  });

  it('the exit-code page lists every exit code', () => {
    const text = readFileSync('docs/exit-codes.md', 'utf8');
    for (const [name, { code }] of Object.entries(EXIT_CODES)) expect(text).toContain(`| ${code} | \`${name}\` |`);
  });

  // troubleshooting.md heads each error's explanation with its exit code and error code
  // ("[3] (`E_JOURNAL_KEY`)"): the exit-code table must name that error code on that exit code's row.
  it('each error code troubleshooting.md explains is named on its exit code\'s row', () => {
    const entries = [...readFileSync('docs/troubleshooting.md', 'utf8').matchAll(/\[(\d+)\] \(`(E_[A-Z_]+)`\)/g)].map((match) => ({ exit: Number(match[1]), error: match[2] ?? '' }));
    expect(entries.map((entry) => entry.error)).toContain('E_JOURNAL_KEY');
    const unnamed = entries.filter(({ exit, error }) => !Object.values(EXIT_CODES).some(({ code, meaning }) => code === exit && meaning.includes(error)));
    expect(unnamed).toEqual([]);
  });
});
