/** npm as a user runs it, for the package tests: without the npm_* variables of an enclosing `npm test`. */
import { runCommand, type CliResult } from '../cli/cli-harness.js';

export function npm(args: string[], cwd: string): Promise<CliResult> {
  // The test may run inside `npm test`: its npm_config_* variables would steer these commands.
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('npm_')) env[key] = value;
  return runCommand('npm', args, { cwd, env });
}
