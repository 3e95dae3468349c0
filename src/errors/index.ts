export * from './debussy-error.js';
export * from './exit-codes.js';
export * from './describe-error.js';
export * from './error-code.js';
export * from './error-message.js';
