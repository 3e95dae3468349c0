export { contextWindowFor } from './context-window.js';
export { countTokens, estimateTokens } from '../tokenizer/index.js';
export { ContextMonitor, type ContextSnapshot, type ContextCrossing, type ContextMonitorOptions } from './context-monitor.js';
export { createDisplaySnapshot, DISPLAY_REFRESH_MS } from './display-snapshot.js';
