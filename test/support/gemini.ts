/**
 * Runs the real Gemini CLI (npm `@google/gemini-cli`, a devDependency) against the scripted Gemini
 * server: a throwaway HOME whose ~/.gemini/settings.json chooses API-key auth (without it gemini
 * 0.61.0 exits 41 before any call), GEMINI_API_KEY, and GOOGLE_GEMINI_BASE_URL at the server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { startScriptedGemini, type ScriptedGemini, type ScriptedGeminiOptions } from './scripted-gemini.js';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const GEMINI_BIN: string = join(PROJECT_ROOT, 'node_modules', '.bin', 'gemini');
export const GEMINI_VERSION = '0.61.0';
/** A model gemini knows (1,048,576-token window); naming one skips its routing classifier. */
export const GEMINI_TEST_MODEL = 'gemini-2.5-pro';
export const GEMINI_TEST_KEY = 'scripted-test-key';
// A developer's own gemini or Google settings must not leak into a run.
const INHERITED_PREFIXES_TO_DROP = ['GEMINI_', 'GOOGLE_'];

/** A temp HOME with ~/.gemini/settings.json choosing API-key auth; removed when the test finishes. */
export function useGeminiHome(settings: Record<string, unknown> = {}): string {
  const home = mkdtempSync(join(tmpdir(), 'debussy-gemini-user-'));
  mkdirSync(join(home, '.gemini'));
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, ...settings }, null, 2));
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

export async function useScriptedGemini(options: ScriptedGeminiOptions): Promise<ScriptedGemini> {
  const server = await startScriptedGemini(options);
  onTestFinished(() => server.close());
  return server;
}

/** The environment of a gemini run against `server`, with `home` as HOME. */
export function geminiEnv(home: string, server: { url: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || INHERITED_PREFIXES_TO_DROP.some((prefix) => key.startsWith(prefix))) continue;
    env[key] = value;
  }
  // gemini writes a report of each API error to its temp folder: kept inside the test's HOME, removed with it.
  const tmp = join(home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return { ...env, HOME: home, TMPDIR: tmp, GEMINI_API_KEY: GEMINI_TEST_KEY, GOOGLE_GEMINI_BASE_URL: server.url };
}

export interface GeminiRun {
  exitCode: number | null;
  signal: string | null;
  /** stdout's JSON lines, parsed, with the ms since the start each arrived. */
  lines: Array<{ at: number; value: Record<string, unknown> }>;
  stderr: string;
}

export interface GeminiRunOptions {
  cwd: string;
  env: Record<string, string>;
  prompt: string;
  args?: string[];
  /** Called with each stdout line as it arrives (e.g. to signal the process). */
  onLine?: (value: Record<string, unknown>, child: import('node:child_process').ChildProcess) => void;
  timeoutMs?: number;
}

/** Runs `gemini --output-format stream-json` once, headless, without its relauncher; the prompt on stdin. */
export async function runGemini(options: GeminiRunOptions): Promise<GeminiRun> {
  const { spawn } = await import('node:child_process');
  const started = Date.now();
  const args = ['--output-format', 'stream-json', '--model', GEMINI_TEST_MODEL, '--approval-mode', 'yolo', '--skip-trust', ...(options.args ?? [])];
  const child = spawn(GEMINI_BIN, args, { cwd: options.cwd, env: { ...options.env, GEMINI_CLI_NO_RELAUNCH: 'true' }, stdio: 'pipe', detached: true });
  child.stdin.end(options.prompt);
  const lines: GeminiRun['lines'] = [];
  let stderr = '';
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const raw of parts) {
      if (raw.trim() === '') continue;
      const value = JSON.parse(raw) as Record<string, unknown>;
      lines.push({ at: Date.now() - started, value });
      options.onLine?.(value, child);
    }
  });
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), options.timeoutMs ?? 30_000);
  const [exitCode, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, sig) => resolve([code, sig])));
  clearTimeout(timer);
  return { exitCode, signal, lines, stderr };
}

/** The chat files gemini wrote under `geminiDir` (`tmp/<project>/chats/session-*.jsonl`), parsed. */
export async function chatRecords(geminiDir: string): Promise<Array<Record<string, unknown>>> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const records: Array<Record<string, unknown>> = [];
  for (const project of readdirSync(join(geminiDir, 'tmp'))) {
    let files: string[] = [];
    try {
      files = readdirSync(join(geminiDir, 'tmp', project, 'chats'));
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(geminiDir, 'tmp', project, 'chats', file), 'utf8').split('\n')) if (line.trim() !== '') records.push(JSON.parse(line) as Record<string, unknown>);
    }
  }
  return records;
}
