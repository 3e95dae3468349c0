/**
 * What claude's permission flags (permission_mode, allowed_tools, disallowed_tools, and
 * --dangerously-skip-permissions in claude_args) let the agent do, as the run warns of it before
 * its first session: editing files, running the gates' commands, and its own `debussy done`.
 */
import type { DebussyConfig } from '../../config/index.js';
import { docFile } from '../../install/package-files.js';
import { bashVerdict, editVerdict, refusalNote, type PermissionSettings } from '../../permissions/rule-check.js';
import { DEBUSSY_TOOL_RULES } from './claude-args.js';

/** What of the config decides claude's permissions. */
export type PermissionConfig = Pick<DebussyConfig, 'permission_mode' | 'allowed_tools' | 'disallowed_tools' | 'claude_args'>;

export function permissionSettingsOf(config: PermissionConfig): PermissionSettings {
  return {
    mode: config.permission_mode,
    allowedTools: [...config.allowed_tools, ...DEBUSSY_TOOL_RULES],
    disallowedTools: config.disallowed_tools,
    skipsChecks: config.claude_args.includes('--dangerously-skip-permissions'),
  };
}

/**
 * One line when the configured permissions would refuse what the agent needs: editing files,
 * running the gates' commands to check its work (debussy runs the gates itself, but an agent that
 * cannot run them works blind), and its own `debussy done`; each named with the setting that allows
 * it. Commands claude runs without a rule (`true`, `test -f x`, `ls | wc -l`) are not named. A
 * warning: the user's Claude Code settings files may allow more than debussy can see.
 */
export function permissionWarning(config: PermissionConfig, gateCommands: readonly string[]): string | undefined {
  const settings = permissionSettingsOf(config);
  const refusedGates = [...new Set(gateCommands)].filter((command) => bashVerdict(settings, command) === 'refused');
  const gate = (command: string) => `\`${command}\` (${refusalNote(settings, command)})`;
  const refused = [
    ...(editVerdict(settings) === 'refused' ? ['file edits (Write, Edit; permission_mode acceptEdits allows them)'] : []),
    ...(bashVerdict(settings, 'debussy done') === 'refused' ? [`\`debussy done\` calls (${refusalNote(settings, 'debussy done')})`] : []),
    ...(refusedGates.length === 0 ? [] : [`gate command${refusedGates.length === 1 ? '' : 's'} ${refusedGates.slice(0, 3).map(gate).join(', ')}${refusedGates.length > 3 ? ` and ${refusedGates.length - 3} more` : ''}`]),
  ];
  if (refused.length === 0) return undefined;
  const mode = config.permission_mode === undefined ? 'permission_mode unset' : `permission_mode ${config.permission_mode}`;
  const list = refused.length === 1 ? refused[0] : `${refused.slice(0, -1).join(', ')} and ${refused[refused.length - 1]}`;
  return `claude would refuse the agent's ${list} (${mode}, ${config.allowed_tools.length} allowed_tools rule(s)) unless your Claude Code settings allow them: see ${docFile('permissions.md')}`;
}
