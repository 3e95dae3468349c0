export * from './checkpoint.js';
export * from './capture-checkpoint.js';
