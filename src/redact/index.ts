export * from './redact-secrets.js';
