import { execa } from 'execa';
import { GitError } from '../errors/index.js';

/** What one git invocation produced. `all` interleaves stdout and stderr (hook output lands there). */
export interface GitOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
  all: string;
}

/**
 * Runs `git args` in `cwd` and reports the exit code instead of throwing on a non-zero one; the
 * caller decides what a failure means. Throws GitError only when git could not be run at all.
 *
 * stdin is closed so a hook that reads it cannot hang the run; optional locks are off so our
 * read-only queries never rewrite the user's index behind their back.
 */
export async function runGit(cwd: string, args: readonly string[]): Promise<GitOutput> {
  const result = await execa('git', args, {
    cwd,
    reject: false,
    stdin: 'ignore',
    all: true,
    stripFinalNewline: false,
    env: { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
  });
  if (result.exitCode === undefined) {
    throw new GitError(`could not run git in ${cwd}: ${result.shortMessage}`, {
      hint: 'Check that git is installed and on PATH and that the directory exists.',
      cause: result.cause,
    });
  }
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, all: result.all };
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
