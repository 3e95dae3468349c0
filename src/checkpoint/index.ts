export * from './checkpoint.js';
export * from './restart-prompt.js';
export * from './capture-checkpoint.js';
