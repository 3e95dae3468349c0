/**
 * A session's context at one moment, in one shape from the monitor on: the monitor's snapshot
 * extends it, the live view shows it, a crossing reports it with the threshold it crossed, and the
 * journal's context_crossed records that crossing as it was reported. The sentence that says a
 * session crossed a threshold is written here and nowhere else.
 */
import { formatCount } from '../text/format-count.js';
import type { ContextLimit } from './context-limit.js';

export interface ContextFigures {
  /** Projection of the next request: what the API reported plus what entered the context since. */
  usedTokens: number;
  /** Absent (in old journals: 0) while the window is unknown. */
  contextWindow?: number | undefined;
  /** usedTokens / contextWindow * 100; 0 while the window is unknown. */
  percent: number;
  toolCalls: number;
  /** Where the session is stopped: the lower of threshold x window and max_context_tokens. */
  limit?: ContextLimit;
}

/** Which threshold was crossed: context_threshold (a percentage) or tool_call_threshold (a count of calls). */
export interface ThresholdCrossed {
  trigger: 'context' | 'tool_calls';
  threshold: number;
}

/** The figures at a crossing and the threshold crossed: what the monitor reports and the journal records. */
export type CrossingFigures = ContextFigures & ThresholdCrossed;

/**
 * "context at 82.5% of 200,000 tokens crossed the 80% threshold", "40 tool calls reached the
 * tool-call threshold 40", or, stopped by max_context_tokens below the percentage, "context at
 * 300,500 tokens (30.1% of 1,000,000) crossed max_context_tokens 300,000". Pure.
 */
export function describeCrossing(crossing: CrossingFigures): string {
  if (crossing.trigger === 'tool_calls') return `${crossing.toolCalls} tool calls reached the tool-call threshold ${crossing.threshold}`;
  const window = crossing.contextWindow ? crossing.contextWindow : undefined;
  if (crossing.limit?.source === 'max_context_tokens') {
    const share = window === undefined ? '' : ` (${crossing.percent.toFixed(1)}% of ${formatCount(window)})`;
    return `context at ${formatCount(crossing.usedTokens)} tokens${share} crossed max_context_tokens ${formatCount(crossing.limit.tokens)}`;
  }
  return `context at ${crossing.percent.toFixed(1)}%${window === undefined ? '' : ` of ${formatCount(window)} tokens`} crossed the ${crossing.threshold}% threshold`;
}
