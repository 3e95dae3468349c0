/**
 * The warnings of the agent a run would use (config `agent`), without loading what starts its
 * sessions: for `run --dry-run` and `debussy status`. The drivers warn of the same before a run
 * (claudeWarnings, codexWarnings, geminiWarnings).
 */
import { claudeWarnings } from '../agent/claude/claude-warnings.js';
import { codexWarnings } from '../agent/codex/codex-command.js';
import { geminiWarnings, readProjectSettings } from '../agent/gemini/gemini-launch.js';
import type { DebussyConfig } from '../config/index.js';

export function agentWarnings(config: DebussyConfig, root: string, env: NodeJS.ProcessEnv, gateCommands: readonly string[]): string[] {
  if (config.agent === 'codex') return codexWarnings(config);
  if (config.agent === 'gemini') return geminiWarnings(config, readProjectSettings(root));
  return claudeWarnings(config, root, env, gateCommands);
}
