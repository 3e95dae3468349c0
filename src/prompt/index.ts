export * from './phase-prompt.js';
export * from './remediation-prompt.js';
export * from './restart-prompt.js';
