/** Spawns the built `debussy` binary, as a user would, and captures what it printed. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const DEBUSSY_BIN = path.join(REPO_ROOT, 'bin/debussy.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the binary without blocking the test worker (a worker that blocks for a minute under load
 * misses vitest's own RPC deadline).
 */
export function debussy(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  // A test run inside a debussy session must not join that session's run.
  for (const key of ['DEBUSSY_RUN_ID', 'DEBUSSY_ATTEMPT_ID', 'DEBUSSY_PROJECT_ROOT', 'DEBUSSY_PLAN', 'DEBUSSY_PHASE_ID']) {
    if (!(options.env && key in options.env)) delete env[key];
  }
  return runCommand(process.execPath, [DEBUSSY_BIN, ...args], { cwd: options.cwd, env });
}

/** Runs `command args` to its end (killed after a minute), capturing what it printed. */
export function runCommand(command: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function tempDir(prefix = 'debussy-cli-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

export function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'Test');
}

/** No user error may print a stack trace. */
export function expectNoStack(result: CliResult): void {
  if (/\n\s+at .+:\d+:\d+/.test(result.stderr)) throw new Error(`stack trace printed:\n${result.stderr}`);
}
