/**
 * Where a session is stopped: the context threshold (a percentage of the window) or
 * max_context_tokens (an absolute cap), whichever comes first. A 1M-token window would otherwise run
 * to 800,000 tokens before a restart, long after the model's work has suffered. Pure.
 */
import { formatCount } from '../text/format-count.js';
import { contextWindowFor } from './context-window.js';

export type ContextLimitSource = 'context_threshold' | 'max_context_tokens';

export interface ContextLimit {
  tokens: number;
  source: ContextLimitSource;
}

export interface LimitInput {
  window: number | undefined;
  /** 100 or more: the percentage never stops a session. */
  thresholdPercent: number;
  maxContextTokens: number | undefined;
}

/** The lower of the two limits; undefined when neither applies (no window known, no cap). */
export function effectiveLimit(input: LimitInput): ContextLimit | undefined {
  const byThreshold = input.window !== undefined && input.window > 0 && input.thresholdPercent < 100 ? (input.window * input.thresholdPercent) / 100 : undefined;
  const cap = input.maxContextTokens !== undefined && input.maxContextTokens > 0 ? input.maxContextTokens : undefined;
  if (cap !== undefined && (byThreshold === undefined || cap < byThreshold)) return { tokens: cap, source: 'max_context_tokens' };
  return byThreshold === undefined ? undefined : { tokens: byThreshold, source: 'context_threshold' };
}

/** "160,000 tokens (80% of 200,000)" or "400,000 tokens (max_context_tokens)". */
export function describeLimit(limit: ContextLimit | undefined, window: number | undefined, thresholdPercent: number): string {
  if (limit === undefined) return window === undefined ? 'none until the window is known' : 'none (context_threshold 100)';
  const tokens = formatCount(limit.tokens);
  if (limit.source === 'max_context_tokens') return `${tokens} tokens (max_context_tokens)`;
  return `${tokens} tokens (${thresholdPercent}% of ${formatCount(window ?? 0)})`;
}

export interface ConfiguredLimit {
  window: number;
  /** Where the window comes from: the context_window key, the configured model, or an example. */
  windowSource: 'context_window' | 'model' | 'typical';
  limit: ContextLimit | undefined;
}

const TYPICAL_WINDOWS = [200_000, 1_000_000];

/**
 * The limits a configuration gives before any session ran: for the window it names (context_window,
 * or the model's), else for the two windows Claude models have, since the window is only known
 * once a session starts.
 */
export function configuredLimits(input: { contextWindow: number | undefined; model: string | undefined; thresholdPercent: number; maxContextTokens: number }): ConfiguredLimit[] {
  const cap = input.maxContextTokens > 0 ? input.maxContextTokens : undefined;
  const forWindow = (window: number, windowSource: ConfiguredLimit['windowSource']): ConfiguredLimit => ({
    window, windowSource, limit: effectiveLimit({ window, thresholdPercent: input.thresholdPercent, maxContextTokens: cap }),
  });
  if (input.contextWindow !== undefined) return [forWindow(input.contextWindow, 'context_window')];
  const byModel = contextWindowFor(input.model);
  if (byModel !== undefined) return [forWindow(byModel, 'model')];
  return TYPICAL_WINDOWS.map((window) => forWindow(window, 'typical'));
}
