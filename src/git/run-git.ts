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
 * How long one git command may take, hooks included. A pre-commit hook that runs a test suite may
 * take minutes; one that waits for input it will never get must not hold the run forever.
 */
export const DEFAULT_GIT_TIMEOUT_MS = 10 * 60_000;
/** After SIGTERM, how long git and its hooks have to exit (git removes its lock files) before SIGKILL. */
const STOP_GRACE_MS = 2_000;
/** The same after a second Ctrl-C: long enough for git's own SIGTERM handler. */
const KILL_NOW_GRACE_MS = 200;
/** After git exited, how long its output pipes may take to drain. */
const DRAIN_MS = 1_000;

export interface RunGitOptions {
  timeoutMs?: number;
}

/** A git command this process is running: its process group holds git and every hook it started. */
interface RunningGit {
  stop(why: string, urgency: 'graceful' | 'now'): void;
}

const runningGit = new Set<RunningGit>();

/**
 * Ends every git command running now, hooks included (the user pressed Ctrl-C: SIGTERM, then
 * SIGKILL after a grace period; a second Ctrl-C, `now`: the same with a grace of a moment, so
 * git still removes its index lock). Each ended command returns a non-zero exit code and says
 * why; commands started afterwards run normally.
 */
export function stopRunningGit(urgency: 'graceful' | 'now'): number {
  for (const git of runningGit) git.stop('stopped by the user', urgency);
  return runningGit.size;
}

function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs `git args` in `cwd` and reports the exit code instead of throwing on a non-zero one; the
 * caller decides what a failure means. Throws GitError only when git could not be run at all (or
 * was ended by a signal debussy did not send). stdin is closed so a hook that reads it cannot hang
 * the run.
 *
 * git runs in its own process group, so a hook that hangs is ended with everything it started
 * when the command outlives its timeout or the user stops the run; the result then carries one
 * line saying so (exit code 124 for a timeout, 130 for a stop), and git's own SIGTERM handling
 * removes its lock files.
 *
 * Plain child_process rather than a process library: a run calls git a few dozen times per phase,
 * and loading one cost more CPU than all of debussy's own git handling (bench figure 7).
 */
export function runGit(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<GitOutput> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const all: Buffer[] = [];
    let settled = false;
    let endedBy: { why: string; exitCode: number } | undefined;
    const timers: NodeJS.Timeout[] = [];
    const fail = (error: GitError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const child = spawn('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const running: RunningGit = {
      stop(why, urgency) {
        endedBy ??= { why, exitCode: why.startsWith('stopped') ? 130 : 124 };
        // Always SIGTERM first: git removes its lock files on it and exits at once (then the
        // group, hooks included, gets SIGKILL on exit); only a git that does not exit is killed.
        signalGroup(child.pid, 'SIGTERM');
        const kill = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), urgency === 'now' ? KILL_NOW_GRACE_MS : STOP_GRACE_MS);
        kill.unref();
        timers.push(kill);
      },
    };
    runningGit.add(running);
    const timeout = setTimeout(() => running.stop(`did not finish within ${Math.round(timeoutMs / 1000)} s (a hook may be waiting for something)`, 'graceful'), timeoutMs);
    timeout.unref();
    timers.push(timeout);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      all.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      all.push(chunk);
    });
    const done = () => {
      runningGit.delete(running);
      for (const timer of timers) clearTimeout(timer);
    };
    child.on('error', (error) => {
      done();
      fail(cannotRun(cwd, args, error.message, error));
    });
    child.on('exit', () => {
      // Whatever a hook left in git's group must not outlive a command debussy ended.
      if (endedBy !== undefined) signalGroup(child.pid, 'SIGKILL');
      // git is done: a background process a hook left holding the pipes is not waited for.
      const drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, DRAIN_MS);
      drain.unref();
      timers.push(drain);
    });
    child.on('close', (code, signal) => {
      done();
      if (settled) return;
      const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
      if (endedBy !== undefined) {
        settled = true;
        const line = `debussy: git ${args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? ''} ${endedBy.why}; debussy ended it and the hooks it ran\n`;
        resolve({ exitCode: endedBy.exitCode, stdout: text(stdout), stderr: text(stderr) + line, all: text(all) + line });
        return;
      }
      if (code === null) {
        fail(cannotRun(cwd, args, `git was ended by ${signal ?? 'a signal'}`));
        return;
      }
      settled = true;
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
