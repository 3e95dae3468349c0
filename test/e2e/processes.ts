/** What the e2e tests look for among the machine's processes, and polls with a deadline. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** PIDs of live (not zombie) processes whose command line matches. */
export function livePids(pattern: RegExp): number[] {
  const ps = execFileSync('ps', ['-eo', 'pid,stat,args'], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 3 && !(cols[1] ?? '').startsWith('Z') && pattern.test(cols.slice(2).join(' ')))
    .map((cols) => Number(cols[0]));
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `probe` until it gives a value, which it returns. */
export async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The PID a test's script wrote to `file`, once it is there whole. */
export function pidIn(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return pid > 0 ? pid : undefined;
}
