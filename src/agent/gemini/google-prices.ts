/**
 * Google's list prices for the Gemini models the Gemini CLI runs, USD per million tokens, in the
 * shape of debussy's price table (src/cost/prices.ts), so a gemini session is priced like a claude
 * one. gemini 0.61.0 reports no cost. Rates of Google's Gemini API pricing page as last read for
 * this table (paid tier; a prompt above 200,000 tokens pays the long tier; cached input at the
 * context-caching rate; Google bills no cache writes for implicit caching). Not re-read when this
 * table was written (no network where it was): check ai.google.dev/pricing and use the `prices`
 * config key to override.
 */
import type { ListModelPrice } from '../list-price.js';

export const GOOGLE_PRICES_AS_OF = '2026-11-27 (Gemini API list prices as last read; check them)';

function tiered(input: number, output: number, cached: number, long: { input: number; output: number; cached: number }): ListModelPrice {
  return { input, output, cacheWrite: input, cacheRead: cached, longPrompt: { aboveTokens: 200_000, input: long.input, output: long.output, cacheWrite: long.input, cacheRead: long.cached } };
}

function flat(input: number, output: number, cached: number): ListModelPrice {
  return { input, output, cacheWrite: input, cacheRead: cached };
}

export const GOOGLE_PRICES: Readonly<Record<string, ListModelPrice>> = {
  'gemini-2.5-pro': tiered(1.25, 10, 0.125, { input: 2.5, output: 15, cached: 0.25 }),
  'gemini-2.5-flash': flat(0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': flat(0.1, 0.4, 0.01),
  'gemini-3-pro-preview': tiered(2, 12, 0.2, { input: 4, output: 18, cached: 0.4 }),
};
