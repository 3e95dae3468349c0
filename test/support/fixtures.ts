import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STREAM_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'streams');

/** How the recorded CLI process ended (stored next to the stream as <name>.exit.json). */
export interface FixtureExit {
  exitCode: number | null;
  signal: string | null;
  stderr: string;
}

/**
 * With RECORD_STREAMS=1 in the environment, writes a real CLI's stdout lines to
 * test/fixtures/streams/<name>.ndjson and its exit to <name>.exit.json; otherwise does nothing
 * (a normal test run never churns the fixtures).
 */
export async function recordStreamFixture(name: string, run: FixtureExit & { rawLines: string[] }): Promise<void> {
  if (process.env.RECORD_STREAMS !== '1') return;
  await mkdir(STREAM_FIXTURES_DIR, { recursive: true });
  await writeFile(join(STREAM_FIXTURES_DIR, `${name}.ndjson`), run.rawLines.map((l) => `${l}\n`).join(''));
  const exit: FixtureExit = { exitCode: run.exitCode, signal: run.signal, stderr: run.stderr };
  await writeFile(join(STREAM_FIXTURES_DIR, `${name}.exit.json`), `${JSON.stringify(exit, null, 2)}\n`);
}

/** The parsed lines of a recorded fixture (a line that is not JSON is kept as a string). */
export async function loadStreamFixture(name: string): Promise<unknown[]> {
  const text = await readFile(join(STREAM_FIXTURES_DIR, `${name}.ndjson`), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return l;
      }
    });
}

export async function loadFixtureExit(name: string): Promise<FixtureExit> {
  return JSON.parse(await readFile(join(STREAM_FIXTURES_DIR, `${name}.exit.json`), 'utf8')) as FixtureExit;
}
