export * from './redact-secrets.js';
export * from './redact-then-cut.js';
export * from './redact-once.js';
export * from './redact-args.js';
