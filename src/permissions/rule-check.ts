/**
 * Would claude let the agent do this without asking? An estimate from debussy's own permission
 * settings, for a warning before the run: Claude Code's rule syntax (`Bash`, `Bash(npm test:*)`,
 * `Bash(git *)`, `Edit`) and modes, as 2.1.x documents them, and the commands it runs without a
 * rule (claude-defaults.ts, measured with 2.1.332). The user's own Claude Code settings files may
 * allow more; that is why the answer feeds a warning and never a refusal. Pure.
 */
import { ruleCanAllow, ruleFor, runsWithoutRule } from './claude-defaults.js';
import { commandLineParts, splitCommandLine, type CommandPart } from './shell-parts.js';

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
  return splitCommandLine(command);
}

function bashRuleCovers(rules: readonly string[], command: string): boolean {
  return rules.map(parseRule).some((rule) => rule.tool === 'Bash' && (rule.specifier === undefined || rule.specifier === '*' || bashRuleMatches(rule.specifier, command)));
}

const allowsEveryCommand = (rules: readonly string[]): boolean => rules.map(parseRule).some((rule) => rule.tool === 'Bash' && (rule.specifier === undefined || rule.specifier.trim() === '*'));

/** A part of a command line claude would refuse, and what would let it run. */
export interface RefusedPart {
  command: string;
  /** The setting to add: `allowed_tools "Bash(npm test:*)"`, `permission_mode acceptEdits`... */
  allowWith: string;
}

/** What lets claude run a part it refuses: its rule, acceptEdits for an output file, or a bare Bash rule. */
function allowanceFor(part: CommandPart, settings: PermissionSettings, covered: boolean): string {
  if (!ruleCanAllow(part)) return 'allowed_tools "Bash" (every command) or permission_mode bypassPermissions; no narrower rule allows it';
  const needs = [
    ...(covered || runsWithoutRule(part, settings.mode) ? [] : [`allowed_tools "${ruleFor(part)}"`]),
    ...(part.writes.length > 0 && settings.mode !== 'acceptEdits' ? [`permission_mode acceptEdits (it writes ${part.writes.join(', ')})`] : []),
  ];
  return needs.join(' and ');
}

/**
 * The parts of a command line claude would refuse under these settings, each with what would allow
 * it; empty when it runs. Deny rules are not looked at here (see bashVerdict). Pure.
 */
export function refusedParts(settings: PermissionSettings, command: string): RefusedPart[] {
  if (settings.skipsChecks || settings.mode === 'bypassPermissions' || allowsEveryCommand(settings.allowedTools)) return [];
  const refused: RefusedPart[] = [];
  for (const part of commandLineParts(command)) {
    const covered = ruleCanAllow(part) && bashRuleCovers(settings.allowedTools, part.text);
    const commandRuns = covered || runsWithoutRule(part, settings.mode);
    const outputRuns = part.writes.length === 0 || settings.mode === 'acceptEdits';
    if (commandRuns && outputRuns && ruleCanAllow(part)) continue;
    refused.push({ command: part.text, allowWith: allowanceFor(part, settings, covered) });
  }
  return refused;
}

export function bashVerdict(settings: PermissionSettings, command: string): PermissionVerdict {
  const parts = commandParts(command);
  if (parts.some((part) => bashRuleCovers(settings.disallowedTools, part))) return 'refused';
  if (refusedParts(settings, command).length === 0) return 'allowed';
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

/**
 * Why claude would refuse a command and what allows it, for a warning: `allowed_tools "Bash(make
 * check:*)"`, or per part of a compound one (`` `tee log`: allowed_tools "Bash(tee:*)" ``). Pure.
 */
export function refusalNote(settings: PermissionSettings, command: string): string {
  const denied = commandParts(command).find((part) => bashRuleCovers(settings.disallowedTools, part));
  if (denied !== undefined) return `a disallowed_tools rule refuses \`${denied}\``;
  const refused = refusedParts(settings, command);
  const whole = refused.length === 1 && refused[0]?.command === command.trim();
  return refused.map((part) => (whole ? part.allowWith : `\`${part.command}\`: ${part.allowWith}`)).join('; ');
}
