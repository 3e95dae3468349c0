/**
 * Real text to fill generated transcripts with: this project's sources and docs and the
 * TypeScript compiler's own code and declarations. Tool outputs cut from it tokenize like the
 * code and logs a real session reads, which random words would not.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');

const PROJECT_DIRS = ['src', 'test', 'docs', 'templates'];
const LARGE_FILES = ['node_modules/typescript/lib/typescript.js', 'node_modules/typescript/lib/lib.dom.d.ts', 'node_modules/typescript/lib/lib.es5.d.ts'];
const TEXT_FILE = /\.(ts|md|js|json|ya?ml)$/;

export interface Corpus {
  /** All files joined, each ending with a newline. */
  text: string;
  /** Relative paths of the files, for tool inputs. */
  paths: string[];
  /** Prose from the docs, for the model's own text. */
  prose: string;
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (TEXT_FILE.test(entry.name) && statSync(full).size < 2_000_000) out.push(full);
  }
}

let cached: Corpus | undefined;

export function loadCorpus(): Corpus {
  if (cached) return cached;
  const files: string[] = [];
  for (const dir of PROJECT_DIRS) walk(path.join(PROJECT_ROOT, dir), files);
  const prose = files.filter((f) => f.endsWith('.md')).map((f) => readFileSync(f, 'utf8')).join('\n');
  const all = [...files, ...LARGE_FILES.map((f) => path.join(PROJECT_ROOT, f))];
  const text = all.map((f) => `${readFileSync(f, 'utf8').replace(/\r/g, '')}\n`).join('');
  cached = { text, prose, paths: files.map((f) => path.relative(PROJECT_ROOT, f)) };
  return cached;
}

/** The same seed gives the same transcript (mulberry32, shared with the recovery backoff). */
export { seededRandom } from '../../src/recovery/backoff.js';

/** About `chars` characters of whole lines from a random place in `text`. */
export function sliceLines(text: string, chars: number, random: () => number): string {
  const span = Math.min(chars, text.length - 1);
  let start = Math.floor(random() * (text.length - span));
  const lineStart = text.lastIndexOf('\n', start);
  start = lineStart === -1 ? 0 : lineStart + 1;
  let end = text.indexOf('\n', start + span);
  if (end === -1) end = text.length;
  return text.slice(start, end);
}
