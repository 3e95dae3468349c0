export * from './checks.js';
export * from './gather-facts.js';
export { OLDEST_TESTED_CLAUDE_VERSION, TESTED_CLAUDE_VERSION, TESTED_CLAUDE_VERSIONS_TEXT } from './tested-claude-version.js';
