export * from './phase-prompt.js';
export * from './remediation-prompt.js';
