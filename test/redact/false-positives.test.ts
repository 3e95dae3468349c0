/**
 * What the redactor hides in text that holds no secret: the sources of installed packages (code an
 * agent reads) and real claude stream output (test/fixtures/streams). Each hidden value there is a
 * false positive, and a log full of them is unreadable. The figure per MB is in docs/recovery.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/redact/index.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Files under `dir` (relative to the repository) whose names end in `extension`. */
function filesUnder(dir: string, extension: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      const full = path.join(at, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith(extension)) found.push(full);
    }
  };
  walk(path.join(root, dir));
  return found;
}

const SOURCES = [
  path.join(root, 'node_modules/typescript/lib/typescript.js'),
  ...filesUnder('node_modules/eslint/lib', '.js'),
  ...filesUnder('node_modules/vitest/dist', '.js'),
  ...filesUnder('node_modules/yaml/dist', '.js'),
  ...filesUnder('node_modules/simple-git/dist', '.js'),
  ...filesUnder('node_modules/execa/lib', '.js'),
  ...filesUnder('node_modules/commander/lib', '.js'),
  ...filesUnder('test/fixtures/streams', '.ndjson'),
];

/** Redactions per MB measured when this bound was set: 1.75 (24 in 13.7 MB, mostly a parser's `lastToken = "?JSX"`). */
const MAX_REDACTIONS_PER_MB = 4;

describe('false positives', () => {
  it(`hides at most ${MAX_REDACTIONS_PER_MB} values per MB of ordinary code and claude output`, () => {
    const redact = createRedactor({});
    let bytes = 0;
    let redactions = 0;
    for (const file of SOURCES) {
      const text = readFileSync(file, 'utf8');
      bytes += Buffer.byteLength(text);
      const count = (s: string): number => s.split('[REDACTED').length - 1;
      redactions += count(redact(text)) - count(text);
    }
    expect(bytes).toBeGreaterThan(10_000_000);
    expect(redactions / (bytes / 1_000_000)).toBeLessThanOrEqual(MAX_REDACTIONS_PER_MB);
  });
});
