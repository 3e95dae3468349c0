/**
 * Recorded outputs of the real codex CLI: test/fixtures/codex-streams/<codex version>/<name>.<kind>
 * where kind is `app-server.jsonl` (stdout of `codex app-server`), `exec.jsonl` (stdout of
 * `codex exec --json`) or `rollout.jsonl` (the rollout file codex wrote), with `<name>.exit.json`.
 * Written only with RECORD_STREAMS=1, so a normal run never churns them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_VERSION } from './codex.js';

export const CODEX_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'codex-streams');

export type CodexFixtureKind = 'app-server' | 'exec' | 'rollout';

export interface CodexFixtureExit {
  exitCode: number | null;
  signal: string | null;
  stderr: string;
}

export async function recordCodexFixture(name: string, kind: CodexFixtureKind, rawLines: readonly string[], exit?: CodexFixtureExit): Promise<void> {
  if (process.env.RECORD_STREAMS !== '1') return;
  const dir = join(CODEX_FIXTURES_DIR, CODEX_VERSION);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.${kind}.jsonl`), rawLines.map((l) => `${l}\n`).join(''));
  if (exit !== undefined) await writeFile(join(dir, `${name}.exit.json`), `${JSON.stringify(exit, null, 2)}\n`);
}

export async function loadCodexFixture(version: string, name: string, kind: CodexFixtureKind): Promise<string[]> {
  const text = await readFile(join(CODEX_FIXTURES_DIR, version, `${name}.${kind}.jsonl`), 'utf8');
  return text.split('\n').filter((l) => l !== '');
}
