/**
 * OpenAI's list prices for the models codex runs, USD per million tokens, in the shape of debussy's
 * price table (src/cost/prices.ts), so a codex session is priced like a claude one. codex 0.171.0
 * embeds no prices (its `codex debug models` catalog has windows, not prices; its strings name none),
 * so these are OpenAI's published rates as copied by several independent pages in June-July 2026:
 * GPT-5.5 $5 / $30, cached input $0.50, above 272,000 prompt tokens $10 / $45 / $1; GPT-5.4 half of
 * that; GPT-5.6 Sol / Terra / Luna $5 / $30, $2.50 / $15, $1 / $6 with cache writes at 1.25x input
 * and cache reads at 10% (the rates OpenAI announced for its preview). OpenAI bills no cache writes
 * before 5.6 (codex reports cache_write_input_tokens 0 there). GPT-6 prices were not found: those
 * models fall back like any unknown one. Check the OpenAI pricing page and use the `prices` config
 * key to override.
 */

import type { ListModelPrice } from '../list-price.js';

export type { ListModelPrice as OpenAiModelPrice } from '../list-price.js';

export const OPENAI_PRICES_AS_OF = '2026-11-26 (OpenAI list prices of June-July 2026)';

function plain(input: number, output: number, cachedInput: number): ListModelPrice {
  return { input, output, cacheWrite: input, cacheRead: cachedInput };
}

/** The 5.6 generation bills explicit cache writes at 1.25x the input price. */
function withCacheWrites(input: number, output: number): ListModelPrice {
  return { input, output, cacheWrite: input * 1.25, cacheRead: input / 10 };
}

export const OPENAI_PRICES: Readonly<Record<string, ListModelPrice>> = {
  'gpt-5.5': { ...plain(5, 30, 0.5), longPrompt: { aboveTokens: 272_000, ...plain(10, 45, 1) } },
  'gpt-5.5-pro': plain(30, 180, 30),
  'gpt-5.4': plain(2.5, 15, 0.25),
  'gpt-5.4-mini': plain(0.75, 4.5, 0.075),
  'gpt-5.4-nano': plain(0.2, 1.25, 0.02),
  'gpt-5.6-sol': withCacheWrites(5, 30),
  'gpt-5.6-terra': withCacheWrites(2.5, 15),
  'gpt-5.6-luna': withCacheWrites(1, 6),
};
