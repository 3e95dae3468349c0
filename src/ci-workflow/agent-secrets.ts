/** The secrets Claude Code takes its credentials from; a generated workflow names one, never a value. */
export const AGENT_SECRETS = ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'] as const;
export type AgentSecret = (typeof AGENT_SECRETS)[number];
