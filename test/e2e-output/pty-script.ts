/**
 * Runs a command on a pseudo-terminal with util-linux `script` and returns the raw bytes it wrote:
 * for asserting on the exact escape sequences (tmux shows the screen, not how it was drawn).
 */
import { spawn, spawnSync } from 'node:child_process';

export function hasScript(): boolean {
  return spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function runInPty(command: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<{ code: number | null; output: string }> {
  // -q no banner, -f flush at once, -e the command's exit code, -c the command; the log goes nowhere.
  const child = spawn('script', ['-qfec', command.map(quote).join(' '), '/dev/null'], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
