/** npm as a user runs it, for the package tests: without the npm_* variables of an enclosing `npm test`. */
import { spawn } from 'node:child_process';
import type { CliResult } from '../cli/cli-harness.js';

/**
 * Runs npm to its end: no kill after a minute as for debussy's own commands (`runCommand`), since
 * `npm pack <git url>` installs every dependency and builds, which takes 2 minutes on a busy
 * 2-core machine; the test's own timeout bounds it.
 */
export function npm(args: string[], cwd: string): Promise<CliResult> {
  // The test may run inside `npm test`: its npm_config_* variables would steer these commands.
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('npm_')) env[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
