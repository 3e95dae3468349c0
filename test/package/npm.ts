/** npm as a user runs it, for the package tests: without the npm_* variables of an enclosing `npm test`. */
import { spawn } from 'node:child_process';
import type { CliResult } from '../cli/cli-harness.js';

/** The environment a user's shell gives npm: the test may run inside `npm test`, whose npm_config_* variables would steer npm. */
function userEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('npm_')) env[key] = value;
  return { ...env, ...extra };
}

/**
 * Runs a command to its end: no kill after a minute as for debussy's own commands (`runCommand`),
 * since `npm pack <git url>` installs every dependency and builds, which takes 2 minutes on a busy
 * 2-core machine; the test's own timeout bounds it.
 */
function run(command: string, args: string[], cwd: string, env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function npm(args: string[], cwd: string): Promise<CliResult> {
  return run('npm', args, cwd, userEnv({}));
}

/** Lines as a user pastes them into sh, with npm settings a user could have in the environment (`npm_config_prefix`, ...). */
export function shell(script: string, cwd: string, npmConfig: Record<string, string>): Promise<CliResult> {
  return run('sh', ['-c', script], cwd, userEnv(npmConfig));
}
