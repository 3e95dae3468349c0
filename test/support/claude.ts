import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { killTree } from './process-tree.js';
import type { TempDir } from './temp-git-repo.js';

export { tempGitRepo, git } from './temp-git-repo.js';
export type { TempDir } from './temp-git-repo.js';

const STDOUT_DRAIN_GRACE_MS = 2_000;

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The real Claude Code CLI installed as a devDependency. */
export const CLAUDE_BIN: string = join(PROJECT_ROOT, 'node_modules', '.bin', 'claude');

/** Flags every harness run uses: print mode, the full event stream, no permission prompts. */
export const CLAUDE_STREAM_ARGS: readonly string[] = [
  '-p',
  '--output-format',
  'stream-json',
  '--verbose',
  '--include-partial-messages',
  '--dangerously-skip-permissions',
];

// Variables of an enclosing Claude Code session or of a developer's own setup would leak into the
// child and change what it sends (or where); an isolated run starts without any of them.
const INHERITED_PREFIXES_TO_DROP = ['ANTHROPIC_', 'CLAUDE_', 'CLAUDECODE', 'OTEL_', 'DISABLE_', 'API_TIMEOUT_MS', 'MAX_THINKING_TOKENS'];

/**
 * The full environment for an isolated claude run against `apiUrl`. Keeps PATH, HOME and the
 * rest of this process's environment. Retries are kept low (the CLI default of 10 with
 * exponential backoff takes minutes); override with `{ ...claudeEnv(...), CLAUDE_CODE_MAX_RETRIES: '3' }`.
 */
export function claudeEnv(apiUrl: string, configDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (INHERITED_PREFIXES_TO_DROP.some((prefix) => key.startsWith(prefix))) continue;
    env[key] = value;
  }
  return {
    ...env,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'test-key',
    CLAUDE_CONFIG_DIR: configDir,
    // claude snapshots the user's login shell before its first Bash call (bash -l, sourcing
    // ~/.bashrc: on this machine pyenv's init, ~400 processes and 0.3 s of CPU a session). A home
    // of its own keeps the developer's shell set-up out of the tests, and that cost with it.
    HOME: configDir,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    API_TIMEOUT_MS: '15000',
  };
}

/** A throwaway CLAUDE_CONFIG_DIR, so no run reads or writes the machine's own claude state. */
export async function makeClaudeConfigDir(): Promise<TempDir> {
  const dir = await mkdtemp(join(tmpdir(), 'debussy-claude-config-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface ClaudeRunOptions {
  cwd: string;
  prompt: string;
  apiUrl: string;
  extraArgs?: string[];
  /** Merged over claudeEnv(apiUrl, <temp config dir>). */
  env?: Record<string, string>;
  /** After this the CLI and all its descendants are SIGKILLed (default 45 s, under the 60 s test timeout). */
  timeoutMs?: number;
}

export interface ClaudeRunResult {
  exitCode: number | null;
  signal: string | null;
  /** Every stdout line parsed as JSON; a line that is not JSON is kept as its raw string. */
  lines: unknown[];
  /** The same lines as received, unparsed (for recording fixtures byte for byte). */
  rawLines: string[];
  stderr: string;
  /** The CLI was SIGKILLed (with its descendants) because timeoutMs ran out. */
  timedOut: boolean;
}

export interface RunningClaude {
  child: ChildProcess;
  pid: number;
  /** Lines so far (grows while the CLI runs). */
  lines: unknown[];
  /** Resolves with the first line (already seen or future) matching `predicate`; rejects if the CLI exits first. */
  waitForLine(predicate: (line: unknown) => boolean): Promise<unknown>;
  /** Sends a signal to the CLI process only (as a terminal or an orchestrator would). */
  signal(sig: NodeJS.Signals): void;
  done: Promise<ClaudeRunResult>;
}

/**
 * Starts the real claude CLI in stream-json mode with the prompt on stdin. Its own temp config dir
 * is removed when it exits. The caller must await `done` (it always settles: timeout kills the tree).
 */
export async function startClaude(opts: ClaudeRunOptions): Promise<RunningClaude> {
  const config = await makeClaudeConfigDir();
  const env = { ...claudeEnv(opts.apiUrl, config.dir), ...opts.env };
  const child = spawn(CLAUDE_BIN, [...CLAUDE_STREAM_ARGS, ...(opts.extraArgs ?? [])], {
    cwd: opts.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // Registered first: a spawn failure (missing binary, bad cwd) arrives as an 'error' event.
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
  });
  const pid = child.pid;
  if (pid === undefined) {
    const { error } = await exited;
    await config.cleanup();
    throw new Error(`could not start ${CLAUDE_BIN} in ${opts.cwd}: ${error?.message ?? 'no pid'}`);
  }

  const lines: unknown[] = [];
  const rawLines: string[] = [];
  const waiters: Array<{ predicate: (line: unknown) => boolean; resolve: (l: unknown) => void; reject: (e: Error) => void }> = [];
  let stderr = '';
  let timedOut = false;
  let ended = false;

  child.stdin.on('error', () => undefined); // the CLI may exit before reading its stdin
  child.stdin.end(opts.prompt);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const reader = createInterface({ input: child.stdout, crlfDelay: Infinity });
  reader.on('line', (text) => {
    const line = parseLine(text);
    rawLines.push(text);
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const stdoutClosed = new Promise<void>((resolve) => {
    reader.on('close', resolve);
    child.stdout.on('close', resolve);
  });

  const timer = setTimeout(() => {
    timedOut = true;
    void killTree(pid, 'SIGKILL');
  }, opts.timeoutMs ?? 45_000);

  const done = (async (): Promise<ClaudeRunResult> => {
    try {
      const { code, signal } = await exited;
      // A leftover process that inherited stdout could keep it open; do not wait on it forever.
      const grace = setTimeout(() => child.stdout.destroy(), STDOUT_DRAIN_GRACE_MS);
      await stdoutClosed;
      clearTimeout(grace);
      return { exitCode: code, signal, lines, rawLines, stderr, timedOut };
    } finally {
      ended = true;
      clearTimeout(timer);
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('claude exited before the awaited line'));
      await config.cleanup();
    }
  })();

  return {
    child,
    pid,
    lines,
    waitForLine(predicate) {
      const seen = lines.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error('claude already exited'));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    signal(sig) {
      child.kill(sig);
    },
    done,
  };
}

/** Runs the real claude CLI once to the end (see startClaude). */
export async function runClaudeOnce(opts: ClaudeRunOptions): Promise<ClaudeRunResult> {
  const running = await startClaude(opts);
  return running.done;
}

function parseLine(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
