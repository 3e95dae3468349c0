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

/** The claude version a recorded run names in its init line. */
function versionOf(rawLines: readonly string[]): string {
  for (const line of rawLines) {
    const match = /"claude_code_version":"([^"]+)"/.exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return 'unknown';
}

/**
 * With RECORD_STREAMS=1 in the environment, writes a real CLI's stdout lines to
 * test/fixtures/streams/<claude version>/<name>.ndjson and its exit to <name>.exit.json; otherwise
 * does nothing (a normal test run never churns the fixtures).
 */
export async function recordStreamFixture(name: string, run: FixtureExit & { rawLines: string[] }): Promise<void> {
  if (process.env.RECORD_STREAMS !== '1') return;
  const dir = join(STREAM_FIXTURES_DIR, versionOf(run.rawLines));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.ndjson`), run.rawLines.map((l) => `${l}\n`).join(''));
  const exit: FixtureExit = { exitCode: run.exitCode, signal: run.signal, stderr: run.stderr };
  await writeFile(join(dir, `${name}.exit.json`), `${JSON.stringify(exit, null, 2)}\n`);
}

/** The parsed lines of a fixture recorded with claude `version` (a line that is not JSON is kept as a string). */
export async function loadStreamFixture(version: string, name: string): Promise<unknown[]> {
  const text = await readFile(join(STREAM_FIXTURES_DIR, version, `${name}.ndjson`), 'utf8');
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

export async function loadFixtureExit(version: string, name: string): Promise<FixtureExit> {
  return JSON.parse(await readFile(join(STREAM_FIXTURES_DIR, version, `${name}.exit.json`), 'utf8')) as FixtureExit;
}
