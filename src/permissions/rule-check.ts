/**
 * Would claude let the agent do this without asking? An estimate from debussy's own permission
 * settings, for a warning before the run: Claude Code's rule syntax (`Bash`, `Bash(npm test:*)`,
 * `Bash(git *)`, `Edit`) and modes, as 2.1.x documents them. The user's own Claude Code settings
 * files may allow more; that is why the answer feeds a warning and never a refusal. Pure.
 */

export interface PermissionSettings {
  mode: string | undefined;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
  /** `--dangerously-skip-permissions` in claude_args: every check is skipped, like bypassPermissions. */
  skipsChecks: boolean;
}

export type PermissionVerdict = 'allowed' | 'refused' | 'unknown';

interface Rule {
  tool: string;
  /** The part in parentheses; undefined for a bare tool name (every use of it). */
  specifier: string | undefined;
}

function parseRule(text: string): Rule {
  const match = /^\s*([^(\s]+)\s*(?:\((.*)\))?\s*$/.exec(text);
  return match ? { tool: match[1] ?? '', specifier: match[2] } : { tool: text.trim(), specifier: undefined };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** `npm test:*` is a prefix; `git *` a wildcard; anything else the exact command. */
export function bashRuleMatches(specifier: string, command: string): boolean {
  const cmd = command.trim();
  if (specifier.endsWith(':*')) {
    const prefix = specifier.slice(0, -2).trim();
    return cmd === prefix || cmd.startsWith(`${prefix} `);
  }
  if (specifier.includes('*')) {
    const pattern = specifier.split('*').map((part) => escapeRegExp(part)).join('.*');
    // "git *" also matches a bare "git", as Claude Code's wildcard does.
    return new RegExp(`^${pattern}$`, 's').test(cmd) || (specifier.endsWith(' *') && cmd === specifier.slice(0, -2).trim());
  }
  return cmd === specifier.trim();
}

/** The simple commands of a command line: claude checks each part of `a && b | c` on its own. */
export function commandParts(command: string): string[] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function bashRuleCovers(rules: readonly string[], command: string): boolean {
  return rules.map(parseRule).some((rule) => rule.tool === 'Bash' && (rule.specifier === undefined || rule.specifier === '*' || bashRuleMatches(rule.specifier, command)));
}

export function bashVerdict(settings: PermissionSettings, command: string): PermissionVerdict {
  const parts = commandParts(command);
  if (parts.some((part) => bashRuleCovers(settings.disallowedTools, part))) return 'refused';
  if (settings.skipsChecks || settings.mode === 'bypassPermissions') return 'allowed';
  if (parts.every((part) => bashRuleCovers(settings.allowedTools, part))) return 'allowed';
  // auto: a classifier decides each call; plan: nothing runs that changes anything.
  if (settings.mode === 'auto') return 'unknown';
  return 'refused';
}

const EDIT_TOOLS = ['Write', 'Edit', 'MultiEdit'];

/** Whether the agent may write and edit files in the project. */
export function editVerdict(settings: PermissionSettings): PermissionVerdict {
  const bare = (rules: readonly string[]) => rules.map(parseRule).filter((rule) => EDIT_TOOLS.includes(rule.tool));
  if (bare(settings.disallowedTools).some((rule) => rule.specifier === undefined)) return 'refused';
  if (settings.skipsChecks || settings.mode === 'bypassPermissions' || settings.mode === 'acceptEdits') return 'allowed';
  if (settings.mode === 'plan') return 'refused';
  if (bare(settings.allowedTools).length > 0) return 'allowed';
  if (settings.mode === 'auto') return 'unknown';
  return 'refused';
}
