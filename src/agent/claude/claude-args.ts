/** The claude command line debussy runs: print mode, the full event stream, request starts, permissions. Pure. */
export const CLAUDE_STREAM_FLAGS: readonly string[] = ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];

/**
 * The agent's own calls to debussy (the shim on its PATH is named `debussy`). They are always
 * allowed, whatever the mode: a phase whose `debussy done` is refused can never finish.
 */
export const DEBUSSY_TOOL_RULES: readonly string[] = ['Bash(debussy done:*)', 'Bash(debussy progress:*)'];

/** What claude may do without asking: its own flags, from permission_mode / allowed_tools / disallowed_tools. */
export interface ClaudePermissions {
  /** Unset: no --permission-mode flag, claude's own settings decide. */
  mode?: string;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
}

/**
 * One flag per rule: `--allowedTools` takes a variadic list that claude splits on spaces and
 * commas, and a rule such as `Bash(npm run test:*)` holds a space. Repeated flags add up.
 */
export function permissionArgs(permissions: ClaudePermissions): string[] {
  const allowed = [...new Set([...permissions.allowedTools, ...DEBUSSY_TOOL_RULES])];
  return [
    ...(permissions.mode === undefined || permissions.mode === '' ? [] : ['--permission-mode', permissions.mode]),
    ...allowed.flatMap((rule) => ['--allowedTools', rule]),
    ...permissions.disallowedTools.flatMap((rule) => ['--disallowedTools', rule]),
  ];
}

/** `maxBudgetUsd`: what the run's or phase's budget leaves (cost/budget.ts); claude stops itself there too. */
export function buildClaudeArgs(input: { model?: string; extraArgs: string[]; resumeSessionId?: string; permissions?: ClaudePermissions; maxBudgetUsd?: string }): string[] {
  return [
    ...CLAUDE_STREAM_FLAGS,
    ...(input.model === undefined || input.model === '' ? [] : ['--model', input.model]),
    ...(input.maxBudgetUsd === undefined ? [] : ['--max-budget-usd', input.maxBudgetUsd]),
    ...(input.resumeSessionId === undefined || input.resumeSessionId === '' ? [] : ['--resume', input.resumeSessionId]),
    ...permissionArgs(input.permissions ?? { allowedTools: [], disallowedTools: [] }),
    ...input.extraArgs,
  ];
}
