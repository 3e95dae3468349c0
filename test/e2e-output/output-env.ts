/** Running the built debussy with an environment where output-related variables are pinned. */
import { spawn } from 'node:child_process';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import type { DebussyResult, E2EProject } from '../e2e/e2e-project.js';

/**
 * The project's environment with the output switches of the machine running the tests removed
 * (a developer's FORCE_COLOR or a CI's GITHUB_ACTIONS), then `changes` applied; undefined unsets.
 */
export function outputEnv(project: E2EProject, changes: Record<string, string | undefined>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = project.env();
  for (const key of ['CI', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'FORCE_COLOR', 'NO_COLOR', 'TERM']) delete env[key];
  // Results of `debussy done` inside the session must go to this run, not to an enclosing one.
  // DEBUSSY_STATE_DIR stays: the test setup's key directory, never the real home (state/journal-key.ts).
  for (const key of Object.keys(env)) if (key.startsWith('DEBUSSY_') && key !== 'DEBUSSY_STATE_DIR') delete env[key];
  return { ...env, ...changes };
}

export function runDebussy(project: E2EProject, args: string[], env: Record<string, string | undefined>): Promise<DebussyResult> {
  const child = spawn(process.execPath, [DEBUSSY_BIN, ...args], { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}
