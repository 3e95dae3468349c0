/**
 * A session's calls as debussy counts them, for the agents that report each call's usage in their
 * own shape (codex's app-server and rollout, gemini's chat file). OpenAI's input_tokens and Google's
 * promptTokenCount already include the cached tokens (and codex's cache writes): the context a call
 * saw is that input; the uncached rest is what debussy's `inputTokens` means. Pure.
 */
import type { AgentEvent, ResultEvent } from './agent-events.js';
import type { AgentError } from './agent-errors.js';

/** One call's tokens as debussy's cost estimate takes them (src/cost/estimate.ts's TokenUsage). */
export interface PricedTokens {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

/**
 * Prices one call (USD). codex and gemini report no cost; the caller passes debussy's estimate (cost/ is
 * not imported here: it depends on agent/). Without one, costs read 0.
 */
export type PriceCall = (model: string, tokens: PricedTokens) => number;

/** One call's usage as the agent reports it (codex: camelCase in the app-server, snake_case in the rollout; gemini: its chat file's tokens). */
export interface CallUsage {
  input: number;
  cached: number;
  cacheWrite: number;
  /** Includes reasoning tokens. */
  output: number;
}

export interface CallTotals {
  priceCall: PriceCall;
  model: string | undefined;
  calls: number;
  uncachedInput: number;
  output: number;
  /** Estimated by priceCall: the agent reports no cost. */
  costUsd: number;
  /** The context of the last call (its input_tokens), and of the one before it. */
  lastContextTokens: number | undefined;
  previousContextTokens: number | undefined;
  contextWindow: number | undefined;
}

export function newTotals(priceCall: PriceCall = () => 0): CallTotals {
  return { priceCall, model: undefined, calls: 0, uncachedInput: 0, output: 0, costUsd: 0, lastContextTokens: undefined, previousContextTokens: undefined, contextWindow: undefined };
}

/** usage (the context of the call) and output_usage for one call, counted and priced. */
export function callEvents(totals: CallTotals, messageId: string, usage: CallUsage): AgentEvent[] {
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

/**
 * How a turn ended (codex's turn, gemini's run), as debussy's result event, in the words the rest of debussy reads
 * (session-outcome.ts, recovery/classify.ts): a completed turn is a "success"; a failed one an
 * "error_during_execution" whose terminalReason is "prompt_too_long" for a context overflow and
 * "api_error" for any other API failure; an interrupted or stopped one keeps the agent's word. The turn's own
 * status stays readable in the subtype of the ones that are neither.
 */
export function resultEvent(
  totals: CallTotals,
  end: { status: string; text?: string; sessionId?: string; failure?: AgentError; durationMs?: number },
): ResultEvent {
  const subtype = end.status === 'completed' ? 'success' : end.status === 'failed' ? 'error_during_execution' : end.status;
  const terminalReason = end.failure === undefined ? end.status : end.failure.kind === 'context_overflow' ? 'prompt_too_long' : 'api_error';
  return {
    type: 'result',
    subtype,
    isError: end.status !== 'completed',
    terminalReason,
    ...(end.failure === undefined ? {} : { apiErrorStatus: end.failure.httpStatus ?? null }),
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
