/**
 * The environment of an agent session: debussy reachable on PATH (so `debussy done` works from the
 * agent's shell tool) and the ids that tie a signal to its attempt. What one agent CLI reads of its
 * own (claude's CLAUDE_* variables) its driver adds (agent/claude/claude-driver.ts).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shimScript } from '../agent-signals/shim-script.js';
import { shellQuote } from '../text/shell-quote.js';
import type { SignalInbox } from '../agent-signals/signal-inbox.js';

/** Absolute path of bin/debussy.js of this installation. */
export function debussyEntryPath(): string {
  return fileURLToPath(new URL('../../bin/debussy.js', import.meta.url));
}

/**
 * Writes `<dir>/debussy`, the agent's debussy (shim-script.ts: done/progress through the run's
 * `inbox`, everything else this very debussy with this very node), and `<dir>/session-env.sh`,
 * which Claude Code sources before every Bash command (CLAUDE_ENV_FILE): it puts the shim first on
 * PATH even where a shell start-up file or a shell snapshot resets PATH, and then sources the
 * user's own CLAUDE_ENV_FILE, if any.
 */
export function writeDebussyShim(dir: string, inbox?: SignalInbox, userEnvFile: string | undefined = process.env.CLAUDE_ENV_FILE): string {
  mkdirSync(dir, { recursive: true });
  const shim = path.join(dir, 'debussy');
  writeFileSync(shim, shimScript({ node: process.execPath, entry: debussyEntryPath(), inbox: inbox?.dir, runPid: inbox === undefined ? undefined : process.pid }));
  chmodSync(shim, 0o755);
  const lines = [`export PATH=${shellQuote(dir)}:"$PATH"`];
  if (userEnvFile) lines.push(`[ -f ${shellQuote(userEnvFile)} ] && . ${shellQuote(userEnvFile)}`);
  writeFileSync(sessionEnvFile(dir), `${lines.join('\n')}\n`);
  return dir;
}

export function sessionEnvFile(shimDir: string): string {
  return path.join(shimDir, 'session-env.sh');
}

export interface AgentEnvInput {
  base: NodeJS.ProcessEnv;
  shimDir: string;
  projectRoot: string;
  runId: string;
  planPath: string;
  phaseId: string;
  attemptId: string;
}

export function buildAgentEnv(input: AgentEnvInput): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...input.base };
  env.PATH = [input.shimDir, input.base.PATH ?? ''].filter(Boolean).join(path.delimiter);
  env.DEBUSSY_PROJECT_ROOT = input.projectRoot;
  env.DEBUSSY_RUN_ID = input.runId;
  env.DEBUSSY_PLAN = input.planPath;
  env.DEBUSSY_PHASE_ID = input.phaseId;
  env.DEBUSSY_ATTEMPT_ID = input.attemptId;
  return env;
}
