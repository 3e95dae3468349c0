import { spawn } from 'node:child_process';
import { GitError } from '../errors/index.js';

/** What one git invocation produced. `all` interleaves stdout and stderr (hook output lands there). */
export interface GitOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
  all: string;
}

/**
 * Optional locks off so our read-only queries never rewrite the user's index behind their back;
 * no credential prompt can wait for a person who is not there.
 */
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };

function cannotRun(cwd: string, args: readonly string[], reason: string, cause?: unknown): GitError {
  return new GitError(`could not run git ${args[0] ?? ''} in ${cwd}: ${reason}`, {
    hint: 'Check that git is installed and on PATH and that the directory exists.',
    cause,
  });
}

/**
 * Runs `git args` in `cwd` and reports the exit code instead of throwing on a non-zero one; the
 * caller decides what a failure means. Throws GitError only when git could not be run at all (or
 * was ended by a signal). stdin is closed so a hook that reads it cannot hang the run.
 *
 * Plain child_process rather than a process library: a run calls git a few dozen times per phase,
 * and loading one cost more CPU than all of debussy's own git handling (bench figure 7).
 */
export function runGit(cwd: string, args: readonly string[]): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const all: Buffer[] = [];
    let settled = false;
    const fail = (error: GitError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const child = spawn('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      all.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      all.push(chunk);
    });
    child.on('error', (error) => fail(cannotRun(cwd, args, error.message, error)));
    child.on('close', (code, signal) => {
      if (code === null) {
        fail(cannotRun(cwd, args, `git was ended by ${signal ?? 'a signal'}`));
        return;
      }
      if (settled) return;
      settled = true;
      const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
      resolve({ exitCode: code, stdout: text(stdout), stderr: text(stderr), all: text(all) });
    });
  });
}

/** Runs git and returns stdout, throwing GitError (with git's own message) on a non-zero exit. */
export async function gitStdout(cwd: string, args: readonly string[]): Promise<string> {
  const output = await runGit(cwd, args);
  if (output.exitCode !== 0) {
    throw new GitError(`git ${args[0] ?? ''} failed in ${cwd}: ${firstLines(output.stderr || output.stdout, 3) || `exit code ${output.exitCode}`}`);
  }
  return output.stdout;
}

/** Splits NUL-terminated (`-z`) output into its records. */
export function splitNul(output: string): string[] {
  return output.split('\0').filter((record) => record !== '');
}

/** The first `count` non-empty lines of some output, for messages that must stay short. */
export function firstLines(text: string, count: number): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(0, count)
    .join('\n');
}
