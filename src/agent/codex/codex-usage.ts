/**
 * A codex session's calls as debussy counts them, shared by the app-server and rollout parsers.
 * OpenAI's input_tokens already include the cached tokens (and codex's cache writes): the context
 * a call saw is input_tokens; the uncached rest is what debussy's `inputTokens` means. Pure.
 */
import type { AgentEvent, ResultEvent } from '../agent-events.js';

/** One call's tokens as debussy's cost estimate takes them (src/cost/estimate.ts's TokenUsage). */
export interface PricedTokens {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

/**
 * Prices one call (USD). codex reports no cost; the caller passes debussy's estimate (cost/ is
 * not imported here: it depends on agent/). Without one, costs read 0.
 */
export type PriceCall = (model: string, tokens: PricedTokens) => number;

/** One call's usage as codex reports it (camelCase in the app-server, snake_case in the rollout). */
export interface CallUsage {
  input: number;
  cached: number;
  cacheWrite: number;
  /** Includes reasoning tokens. */
  output: number;
}

export interface CodexTotals {
  priceCall: PriceCall;
  model: string | undefined;
  calls: number;
  uncachedInput: number;
  output: number;
  /** Estimated by priceCall: codex reports no cost. */
  costUsd: number;
  /** The context of the last call (its input_tokens), and of the one before it. */
  lastContextTokens: number | undefined;
  previousContextTokens: number | undefined;
  contextWindow: number | undefined;
}

export function newTotals(priceCall: PriceCall = () => 0): CodexTotals {
  return { priceCall, model: undefined, calls: 0, uncachedInput: 0, output: 0, costUsd: 0, lastContextTokens: undefined, previousContextTokens: undefined, contextWindow: undefined };
}

/** usage (the context of the call) and output_usage for one call, counted and priced. */
export function callEvents(totals: CodexTotals, messageId: string, usage: CallUsage): AgentEvent[] {
  const uncached = Math.max(0, usage.input - usage.cached - usage.cacheWrite);
  const model = totals.model ?? 'unknown';
  totals.calls += 1;
  totals.uncachedInput += uncached;
  totals.output += usage.output;
  totals.previousContextTokens = totals.lastContextTokens;
  totals.lastContextTokens = usage.input;
  totals.costUsd += totals.priceCall(model, { inputTokens: uncached, outputTokens: usage.output, cacheReadTokens: usage.cached, cacheCreationTokens: usage.cacheWrite });
  return [
    { type: 'usage', messageId, model, inputTokens: uncached, cacheReadTokens: usage.cached, cacheCreationTokens: usage.cacheWrite, contextTokens: usage.input },
    { type: 'output_usage', outputTokens: usage.output },
  ];
}

/** How a codex turn ended, as debussy's result event. */
export function resultEvent(
  totals: CodexTotals,
  end: { status: string; text?: string; sessionId?: string; apiErrorStatus?: number | null; durationMs?: number },
): ResultEvent {
  return {
    type: 'result',
    subtype: end.status,
    isError: end.status === 'failed',
    terminalReason: end.status,
    ...(end.apiErrorStatus === undefined ? {} : { apiErrorStatus: end.apiErrorStatus }),
    text: end.text,
    sessionId: end.sessionId,
    costUsd: totals.costUsd,
    inputTokens: totals.uncachedInput,
    outputTokens: totals.output,
    contextWindow: totals.contextWindow,
    numTurns: totals.calls,
    durationMs: end.durationMs,
  };
}
