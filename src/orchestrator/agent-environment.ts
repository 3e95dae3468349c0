/**
 * The environment of an agent session: debussy reachable on PATH (so `debussy done` works from the
 * agent's Bash tool), the ids that tie a signal to its attempt, and bounded CLI-internal retries.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of bin/debussy.js of this installation. */
export function debussyEntryPath(): string {
  return fileURLToPath(new URL('../../bin/debussy.js', import.meta.url));
}

/** Writes `<dir>/debussy`, a shim that runs this very debussy with this very node. */
export function writeDebussyShim(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const shim = path.join(dir, 'debussy');
  const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  writeFileSync(shim, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(debussyEntryPath())} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

export interface AgentEnvInput {
  base: NodeJS.ProcessEnv;
  shimDir: string;
  projectRoot: string;
  runId: string;
  planPath: string;
  phaseId: string;
  attemptId: string;
  claudeMaxRetries: number;
  apiTimeoutMs: number;
}

export function buildAgentEnv(input: AgentEnvInput): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...input.base };
  env.PATH = [input.shimDir, input.base.PATH ?? ''].filter(Boolean).join(path.delimiter);
  env.DEBUSSY_PROJECT_ROOT = input.projectRoot;
  env.DEBUSSY_RUN_ID = input.runId;
  env.DEBUSSY_PLAN = input.planPath;
  env.DEBUSSY_PHASE_ID = input.phaseId;
  env.DEBUSSY_ATTEMPT_ID = input.attemptId;
  // The user's own settings win where they set them explicitly.
  env.CLAUDE_CODE_MAX_RETRIES ??= String(input.claudeMaxRetries);
  env.API_TIMEOUT_MS ??= String(input.apiTimeoutMs);
  return env;
}
