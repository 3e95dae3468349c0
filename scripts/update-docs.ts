/**
 * Regenerates the parts of docs/ that come from code: the configuration reference table and the
 * exit-code table, and the config file's JSON Schema. `npm run docs`; test/docs checks they are current.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_JSON_SCHEMA_PATH, renderConfigJsonSchemaFile, renderReferenceTable } from '../src/config/index.js';
import { renderExitCodeTable } from '../src/errors/render-exit-codes.js';

export const GENERATED: { file: string; marker: string; render: () => string }[] = [
  { file: 'docs/configuration.md', marker: 'config-reference', render: renderReferenceTable },
  { file: 'docs/exit-codes.md', marker: 'exit-codes', render: renderExitCodeTable },
];

/** Files generated whole. */
export const GENERATED_FILES: { file: string; render: () => string }[] = [{ file: CONFIG_JSON_SCHEMA_PATH, render: renderConfigJsonSchemaFile }];

export function replaceGenerated(text: string, marker: string, content: string): string {
  const start = `<!-- generated:${marker} -->`;
  const end = `<!-- /generated:${marker} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`markers ${start} ... ${end} not found`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  for (const { file, marker, render } of GENERATED) {
    const before = readFileSync(file, 'utf8');
    const after = replaceGenerated(before, marker, render());
    if (after !== before) writeFileSync(file, after);
    console.log(`${file}: ${after === before ? 'up to date' : 'updated'}`);
  }
  for (const { file, render } of GENERATED_FILES) {
    const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const after = render();
    if (after !== before) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, after);
    }
    console.log(`${file}: ${after === before ? 'up to date' : 'updated'}`);
  }
}
