/**
 * A session's cost from its tokens, as claude computes its own total_cost_usd: uncached input,
 * output, cache writes and cache reads, each at the model's price per million tokens. Used for
 * sessions stopped before claude's result (restarts, Ctrl-C, budget stops), which report no cost.
 * Pure.
 */
import { priceFor, pricesForCall, type PriceTable } from './prices.js';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

export interface CostEstimate {
  usd: number;
  estimated: true;
  /** False when the model is not in the price table and claude's default model's price stood in. */
  priceKnown: boolean;
}

const PER_MILLION = 1_000_000;

/**
 * The cost of `usage` on `model`. A model with a long-prompt tier is priced by the prompt of the
 * usage as one call (its input, cache reads and writes): give it one call's usage.
 */
export function estimateCost(usage: TokenUsage, model: string, table: PriceTable): CostEstimate {
  const { price: modelPrice, entry } = priceFor(model, table);
  const price = pricesForCall(modelPrice, usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens);
  const usd =
    (usage.inputTokens * price.input + usage.outputTokens * price.output + usage.cacheCreationTokens * price.cacheWrite + usage.cacheReadTokens * price.cacheRead) /
    PER_MILLION;
  return { usd, estimated: true, priceKnown: entry !== undefined };
}

export const NO_TOKENS: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
