import { randomUUID } from 'node:crypto';
import type { SimpleGit, SimpleGitOptions } from 'simple-git';
import { findExecutable } from '../process/find-executable.js';
import { GitError } from '../errors/index.js';
import { findMarkedProcesses, terminateProcesses } from '../process/tree.js';

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

/** Marks every process one git command starts (git, its hooks, filters) so a stop ends them all. */
export const GIT_MARKER_VAR = 'DEBUSSY_GIT_MARKER';

function cannotRun(cwd: string, args: readonly string[], reason: string, cause?: unknown): GitError {
  return new GitError(`could not run git ${args[0] ?? ''} in ${cwd}: ${reason}`, {
    hint: 'Check that git is installed and on PATH and that the directory exists.',
    cause,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
}

/**
 * How long one git command may take, hooks included. A pre-commit hook that runs a test suite may
 * take minutes; one that waits for input it will never get must not hold the run forever.
 */
export const DEFAULT_GIT_TIMEOUT_MS = 10 * 60_000;
/** After SIGTERM, how long git and its hooks have to exit (git removes its lock files) before SIGKILL. */
const STOP_GRACE_MS = 2_000;
/** The same after a second Ctrl-C: long enough for git's own signal handler. */
const KILL_NOW_GRACE_MS = 200;

export interface RunGitOptions {
  timeoutMs?: number;
  /** `-c name=value` settings for this command only. */
  config?: readonly string[];
  /** Variables added to git's environment for this command only. */
  env?: Readonly<Record<string, string>>;
}

/** A git command this process is running: its processes carry its marker. */
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

type SimpleGitModule = typeof import('simple-git');
let simpleGitModule: Promise<SimpleGitModule> | undefined;

/** simple-git is loaded by the first git command: `done`, `progress` and `status` run none and never load it. */
function loadSimpleGit(): Promise<SimpleGitModule> {
  return (simpleGitModule ??= import('simple-git'));
}

/**
 * simple-git guards against arguments and environment that make git run other programs, for
 * applications that pass untrusted input to git. debussy passes its own fixed arguments and
 * literal paths, in the user's own repository, with the user's own configuration and environment
 * (their GIT_* variables, hooks, filters and aliases must keep working): every guard is off.
 */
const TRUSTED: Required<NonNullable<SimpleGitOptions['unsafe']>> = {
  allowUnsafeAlias: true,
  allowUnsafeAskPass: true,
  allowUnsafeCommandBinaries: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeEditor: true,
  allowUnsafeMergeDriver: true,
  allowUnsafePager: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafePack: true,
  allowUnsafeSshCommand: true,
  allowUnsafeGitProxy: true,
  allowUnsafeExec: true,
  allowUnsafeHooksPath: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeFilter: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeTemplateDir: true,
  allowUnsafeInclude: true,
  allowUnsafeSubmodule: true,
  allowUnsafeUrlRewrite: true,
  allowUnsafeCustomBinary: false,
  allowAbbreviatedOptions: true,
};

let binary: SimpleGitOptions['binary'] | undefined;

/**
 * git in its own session and process group, so a Ctrl-C on the terminal reaches only debussy,
 * which decides how to end it: simple-git's spawn options take no `detached`, so git is started
 * through setsid(1) (which execs git in place: the PID simple-git signals is git's). Where there
 * is no setsid (macOS), git shares debussy's group; a stop still ends it and its hooks by marker.
 */
function gitBinary(): NonNullable<SimpleGitOptions['binary']> {
  binary ??= findExecutable('setsid', process.cwd(), process.env.PATH) === undefined ? 'git' : ['setsid', 'git'];
  return binary;
}

/** What a git task gave: its value when git exited 0, and always what git printed. */
export interface GitTaskResult<T> {
  value: T | undefined;
  output: GitOutput;
}

/**
 * Runs one simple-git task (`git.status(...)`, `git.raw(...)`) in `cwd` and reports git's exit code
 * instead of throwing on a non-zero one; the caller decides what a failure means. Throws GitError
 * only when git could not be run at all (or was ended by a signal debussy did not send). `label`
 * names the command in messages (`['commit']`).
 *
 * Every process of the command (git, its hooks, the filters it runs) carries a marker variable,
 * so a hook that hangs is ended with everything it started when the command outlives its timeout
 * or the user stops the run: git gets SIGINT from simple-git's abort and SIGTERM with the rest of
 * them (git removes its lock files on either), SIGKILL follows after a grace period. The result
 * then carries one line saying so (exit code 124 for a timeout, 130 for a stop).
 */
export async function runGitTask<T>(cwd: string, label: readonly string[], task: (git: SimpleGit) => Promise<T>, options: RunGitOptions = {}): Promise<GitTaskResult<T>> {
  let module: SimpleGitModule;
  try {
    module = await loadSimpleGit();
  } catch (error) {
    throw cannotRun(cwd, label, `simple-git could not be loaded (${messageOf(error)})`, error);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const marker = randomUUID();
  const env: Record<string, string | undefined> = { ...process.env, ...GIT_ENV, ...options.env, [GIT_MARKER_VAR]: marker };
  const abort = new AbortController();
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const all: Buffer[] = [];
  let exitCode: number | null | undefined;
  let git: SimpleGit;
  try {
    git = module
      .simpleGit({
        baseDir: cwd,
        binary: gitBinary(),
        config: [...(options.config ?? [])],
        abort: abort.signal,
        unsafe: TRUSTED,
        allowEnvironment: Object.keys(env),
        // Every exit but 0 is a failure (simple-git's own rule lets a silent non-zero exit pass).
        errors: (error, result) => {
          exitCode = result.exitCode;
          return result.exitCode === 0 ? error : (error ?? new Error(`git exited with code ${String(result.exitCode)}`));
        },
      })
      .env(env)
      .outputHandler((_command, out, err) => {
        out.on('data', (chunk: Buffer) => (stdout.push(chunk), all.push(chunk)));
        err.on('data', (chunk: Buffer) => (stderr.push(chunk), all.push(chunk)));
      });
  } catch (error) {
    throw cannotRun(cwd, label, messageOf(error), error);
  }

  let endedBy: { why: string; exitCode: number } | undefined;
  const ending: Promise<unknown>[] = [];
  const running: RunningGit = {
    stop(why, urgency) {
      endedBy ??= { why, exitCode: why.startsWith('stopped') ? 130 : 124 };
      abort.abort();
      ending.push(terminateProcesses(findMarkedProcesses({ name: GIT_MARKER_VAR, value: marker }), urgency === 'now' ? KILL_NOW_GRACE_MS : STOP_GRACE_MS));
    },
  };
  runningGit.add(running);
  const timeout = setTimeout(() => running.stop(`did not finish within ${Math.round(timeoutMs / 1000)} s (a hook may be waiting for something)`, 'graceful'), timeoutMs);
  timeout.unref();
  let value: T | undefined;
  let failure: unknown;
  try {
    value = await task(git);
  } catch (error) {
    failure = error;
  } finally {
    clearTimeout(timeout);
    runningGit.delete(running);
  }
  // Whatever a stopped command left must be gone before its result is.
  await Promise.all(ending);
  const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
  if (endedBy !== undefined) {
    const line = `debussy: git ${label.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? ''} ${endedBy.why}; debussy ended it and the hooks it ran\n`;
    return { value: undefined, output: { exitCode: endedBy.exitCode, stdout: text(stdout), stderr: text(stderr) + line, all: text(all) + line } };
  }
  if (failure !== undefined && typeof exitCode !== 'number') {
    throw cannotRun(cwd, label, exitCode === null ? 'git was ended by a signal' : messageOf(failure), failure);
  }
  const output = { exitCode: failure === undefined ? 0 : (exitCode ?? 1), stdout: text(stdout), stderr: text(stderr), all: text(all) };
  return { value: failure === undefined ? value : undefined, output };
}

/**
 * Runs `git args` in `cwd` (simple-git's `raw`) and reports the exit code instead of throwing on a
 * non-zero one; see runGitTask.
 */
export async function runGit(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<GitOutput> {
  return (await runGitTask(cwd, args, (git) => git.raw([...args]), options)).output;
}

/** Runs a simple-git task and returns its value, throwing GitError (with git's own message) on a non-zero exit. */
export async function gitQuery<T>(cwd: string, label: readonly string[], task: (git: SimpleGit) => Promise<T>, options: RunGitOptions = {}): Promise<T> {
  const { value, output } = await runGitTask(cwd, label, task, options);
  if (output.exitCode !== 0) {
    throw new GitError(`git ${label[0] ?? ''} failed in ${cwd}: ${firstLines(output.stderr || output.stdout, 3) || `exit code ${output.exitCode}`}`);
  }
  return value as T;
}

/** Runs git and returns stdout, throwing GitError (with git's own message) on a non-zero exit. */
export async function gitStdout(cwd: string, args: readonly string[]): Promise<string> {
  return gitQuery(cwd, args, (git) => git.raw([...args]));
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
