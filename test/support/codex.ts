/**
 * Runs the real codex CLI (npm `@openai/codex`, a devDependency) against a scripted Responses
 * server, in a throwaway CODEX_HOME: `codex exec --json` or `codex app-server` over stdio.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { killTree } from './process-tree.js';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The launcher users get on PATH (`node bin/codex.js`): on Node 20 it spawns the native binary and forwards signals. */
export const CODEX_BIN: string = join(PROJECT_ROOT, 'node_modules', '.bin', 'codex');
export { CODEX_VERSION } from './codex-fixtures.js';
/** A model of codex 0.171.0's catalog: 272,000-token window, 95% usable (258,400 reported). */
export const CODEX_TEST_MODEL = 'gpt-5.5';
export const CODEX_KEY_ENV = 'DEBUSSY_TEST_OPENAI_KEY';
export const CODEX_TEST_KEY = 'sk-scripted-test-key';

const STDOUT_DRAIN_GRACE_MS = 2_000;
// A developer's own codex or OpenAI settings must not leak into a run.
const INHERITED_PREFIXES_TO_DROP = ['CODEX_', 'OPENAI_', 'AZURE_OPENAI'];

export interface CodexHomeOptions {
  /** The scripted server's base URL (`.../v1`). */
  baseUrl: string;
  model?: string;
  /** request_max_retries and stream_max_retries of the provider (default 0: a failure shows at once). */
  retries?: number;
  /** More top-level config.toml lines. */
  extraToml?: string;
}

/** A temp CODEX_HOME whose config.toml points codex at the scripted server; never the user's home. */
export async function makeCodexHome(options: CodexHomeOptions): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'debussy-codex-home-'));
  const retries = options.retries ?? 0;
  const toml = [
    `model = "${options.model ?? CODEX_TEST_MODEL}"`,
    'model_provider = "scripted"',
    options.extraToml ?? '',
    '[model_providers.scripted]',
    'name = "scripted"',
    `base_url = "${options.baseUrl}"`,
    `env_key = "${CODEX_KEY_ENV}"`,
    'wire_api = "responses"',
    `request_max_retries = ${retries}`,
    `stream_max_retries = ${retries}`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'config.toml'), toml);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function codexEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || INHERITED_PREFIXES_TO_DROP.some((prefix) => key.startsWith(prefix))) continue;
    env[key] = value;
  }
  // codex runs its tools in a login shell (bash -lc), which sources ~/.profile: on this machine
  // pyenv's init and its `pyenv rehash`, whose lock, left behind by a shell a test killed mid-way,
  // made every later login shell wait 60 s. A home of its own keeps the developer's shell set-up
  // out of the tests, as claudeEnv does for claude.
  return { ...env, HOME: home, CODEX_HOME: home, [CODEX_KEY_ENV]: CODEX_TEST_KEY, RUST_LOG: 'error' };
}

/** The rollout files codex wrote under `home` (sessions/YYYY/MM/DD/rollout-*-<thread id>.jsonl). */
export async function rolloutFiles(home: string): Promise<string[]> {
  const walk = async (dir: string): Promise<string[]> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
    return nested.flat();
  };
  return (await walk(join(home, 'sessions'))).filter((f) => /rollout-.*\.jsonl$/.test(f)).sort();
}

export interface TimedLine {
  /** ms since the process was started. */
  at: number;
  raw: string;
  /** Parsed JSON, or the raw string when it is not JSON. */
  value: unknown;
}

export interface CodexProcessResult {
  exitCode: number | null;
  signal: string | null;
  lines: TimedLine[];
  stderr: string;
  timedOut: boolean;
}

export interface RunningCodex {
  child: ChildProcess;
  pid: number;
  startedAt: number;
  home: string;
  lines: TimedLine[];
  waitForLine(predicate: (value: unknown) => boolean): Promise<TimedLine>;
  /** Writes one line to stdin (app-server). */
  write(line: string): void;
  closeStdin(): void;
  signal(sig: NodeJS.Signals): void;
  done: Promise<CodexProcessResult>;
}

export interface CodexSpawnOptions {
  cwd: string;
  args: string[];
  home: string;
  /** 'pipe' keeps stdin open for JSON-RPC; 'ignore' is /dev/null (exec: codex reads a piped stdin). */
  stdin: 'pipe' | 'ignore';
  env?: Record<string, string>;
  /** After this the process tree is SIGKILLed (default 45 s). */
  timeoutMs?: number;
}

/** Starts codex with `args`; `done` always settles (the timeout kills the tree). */
export function spawnCodex(opts: CodexSpawnOptions): RunningCodex {
  const startedAt = Date.now();
  const child = spawn(CODEX_BIN, opts.args, { cwd: opts.cwd, env: { ...codexEnv(opts.home), ...opts.env }, stdio: [opts.stdin, 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', () => resolve({ code: null, signal: null }));
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${CODEX_BIN}`);
  const lines: TimedLine[] = [];
  const waiters: Array<{ predicate: (v: unknown) => boolean; resolve: (l: TimedLine) => void; reject: (e: Error) => void }> = [];
  let stderr = '';
  let timedOut = false;
  let ended = false;
  child.stdin?.on('error', () => undefined);
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  const reader = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  reader.on('line', (raw) => {
    const line: TimedLine = { at: Date.now() - startedAt, raw, value: parseLine(raw) };
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(line.value)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const stdoutClosed = new Promise<void>((resolve) => reader.on('close', resolve));
  const timer = setTimeout(() => {
    timedOut = true;
    void killTree(pid, 'SIGKILL');
  }, opts.timeoutMs ?? 45_000);
  const done = (async (): Promise<CodexProcessResult> => {
    const { code, signal } = await exited;
    const grace = setTimeout(() => child.stdout?.destroy(), STDOUT_DRAIN_GRACE_MS);
    await stdoutClosed;
    clearTimeout(grace);
    ended = true;
    clearTimeout(timer);
    for (const waiter of waiters.splice(0)) waiter.reject(new Error('codex exited before the awaited line'));
    return { exitCode: code, signal, lines, stderr, timedOut };
  })();
  return {
    child,
    pid,
    startedAt,
    home: opts.home,
    lines,
    waitForLine(predicate) {
      const seen = lines.find((l) => predicate(l.value));
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error('codex already exited'));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    write(line) {
      child.stdin?.write(line);
    },
    closeStdin() {
      child.stdin?.end();
    },
    signal(sig) {
      child.kill(sig);
    },
    done,
  };
}

function parseLine(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Flags of an unattended `codex exec --json` run in a scratch repo. */
export const EXEC_JSON_ARGS: readonly string[] = ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check'];
