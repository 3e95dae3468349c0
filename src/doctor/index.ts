export * from './checks.js';
export * from './gather-facts.js';
export { TESTED_CLAUDE_VERSION } from './tested-claude-version.js';
