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
  return { ...env, HOME: home, GEMINI_API_KEY: GEMINI_TEST_KEY, GOOGLE_GEMINI_BASE_URL: server.url };
}
