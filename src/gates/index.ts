export * from './run-gates.js';
