export { contextWindowFor } from './context-window.js';
export { countTokens, estimateTokens } from '../tokenizer/index.js';
export { ContextMonitor, type ContextSnapshot, type ContextCrossing, type ContextMonitorOptions } from './context-monitor.js';
export { describeCrossing, type ContextFigures, type ThresholdCrossed, type CrossingFigures } from './context-figures.js';
export { createDisplaySnapshot, DISPLAY_REFRESH_MS } from './display-snapshot.js';
export { effectiveLimit, describeLimit, configuredLimits, type ContextLimit, type ContextLimitSource, type ConfiguredLimit } from './context-limit.js';
export { TokenCalibration, learnVerdict, type GrowthSample, type LearnVerdict, UNSEEN_JUMP_TOKENS, FACTOR_SAMPLE_TOKENS, RATIO_CLIP } from './token-calibration.js';
export { priorFor, DEFAULT_PRIOR, type ModelPrior } from './model-priors.js';
