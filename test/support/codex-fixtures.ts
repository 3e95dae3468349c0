/**
 * Recorded outputs of the real codex CLI: test/fixtures/codex-streams/<codex version>/<name>.<kind>
 * where kind is `app-server.jsonl` (stdout of `codex app-server`), `exec.jsonl` (stdout of
 * `codex exec --json`) or `rollout.jsonl` (the rollout file codex wrote), with `<name>.exit.json`.
 * Written only with RECORD_STREAMS=1, so a normal run never churns them. Strings over 1,000
 * characters (codex's base instructions and skills list) are replaced by a note of their length.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODEX_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'codex-streams');

export type CodexFixtureKind = 'app-server' | 'exec' | 'rollout';

/** The codex version the tests pin (package.json). */
export const CODEX_VERSION = '0.171.0';

export interface CodexFixtureExit {
  exitCode: number | null;
  signal: string | null;
  stderr: string;
}

/** Strings this long are codex's own texts (its instructions, its skills list): not ours to commit. */
const LONG_TEXT = 1_000;

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return value.length > LONG_TEXT ? `[${value.length} characters of codex's own text left out]` : value;
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
  return value;
}

/** A recorded line with codex's long texts left out (a line that is not JSON is kept as it is). */
export function scrubLine(line: string): string {
  try {
    return JSON.stringify(scrub(JSON.parse(line)));
  } catch {
    return line;
  }
}

export async function recordCodexFixture(name: string, kind: CodexFixtureKind, rawLines: readonly string[], exit?: CodexFixtureExit): Promise<void> {
  if (process.env.RECORD_STREAMS !== '1') return;
  const dir = join(CODEX_FIXTURES_DIR, CODEX_VERSION);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.${kind}.jsonl`), rawLines.map((l) => `${scrubLine(l)}\n`).join(''));
  if (exit !== undefined) await writeFile(join(dir, `${name}.exit.json`), `${JSON.stringify(exit, null, 2)}\n`);
}

export async function loadCodexFixture(version: string, name: string, kind: CodexFixtureKind): Promise<string[]> {
  const text = await readFile(join(CODEX_FIXTURES_DIR, version, `${name}.${kind}.jsonl`), 'utf8');
  return text.split('\n').filter((l) => l !== '');
}
