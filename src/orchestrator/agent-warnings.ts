/**
 * The warnings of the agent a run would use (config `agent`), without loading what starts its
 * sessions: for `run --dry-run` and `debussy status`. The drivers warn of the same before a run
 * (agent/claude/claude-warnings.ts, agent/codex/codex-command.ts).
 */
import { claudeWarnings } from '../agent/claude/claude-warnings.js';
import { codexPermissions } from '../agent/codex/codex-command.js';
import type { DebussyConfig } from '../config/index.js';

export function agentWarnings(config: DebussyConfig, root: string, env: NodeJS.ProcessEnv, gateCommands: readonly string[]): string[] {
  if (config.agent === 'codex') return codexPermissions(config.permission_mode, { allowed: config.allowed_tools.length, disallowed: config.disallowed_tools.length }).notes;
  return claudeWarnings(config, root, env, gateCommands);
}
