export * from './notification.js';
export * from './notifier.js';
export * from './terminal-notifier.js';
export * from './desktop-notifier.js';
export * from './webhook-notifier.js';
