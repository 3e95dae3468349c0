/**
 * What a run with Claude Code warns of before its first session: permissions that would refuse the
 * agent's edits, its gates or its `debussy done`, and settings that turn debussy's hooks off. Kept
 * apart from the driver, which starts sessions (and so loads execa): `run --dry-run` and `status`
 * say the same without loading it.
 */
import type { DebussyConfig } from '../../config/index.js';
import { permissionWarning } from './claude-permissions.js';
import { hooksOffWarning } from './hooks-off.js';

export function claudeWarnings(
  config: Pick<DebussyConfig, 'permission_mode' | 'allowed_tools' | 'disallowed_tools' | 'claude_args'>,
  root: string,
  env: NodeJS.ProcessEnv,
  gateCommands: readonly string[],
): string[] {
  return [permissionWarning(config, gateCommands), hooksOffWarning(config.claude_args, root, env)].filter((warning): warning is string => warning !== undefined);
}
