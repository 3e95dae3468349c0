/**
 * Google's list prices for the Gemini models the Gemini CLI runs, USD per million tokens, in the
 * shape of debussy's price table (src/cost/prices.ts), so a gemini session is priced like a claude
 * one. gemini 0.61.0 reports no cost. Paid tier of Google's Gemini API pricing; a prompt above
 * 200,000 tokens pays the long tier where a model has one; cached input at the context-caching
 * rate; Google bills no cache writes for implicit caching. Checked on 2026-11-27 against the public
 * models.dev catalogue (its google provider, which cites ai.google.dev/gemini-api/docs/pricing):
 * the four first entries agreed with it; the rest are the models gemini 0.61.0 names (its flash,
 * flash-lite and preview aliases). gemini-3.8-flash is at Google's introductory price, which ends on
 * 2026-12-31 (published 2027 rates: 1.50 / 7.50 / 0.15). Use the `prices` config key to override.
 */
import type { ListModelPrice } from '../list-price.js';

export const GOOGLE_PRICES_AS_OF = '2026-11-27 (Gemini API list prices; gemini-3.8-flash introductory until 2026-12-31)';

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
  'gemini-3-flash-preview': flat(0.5, 3, 0.05),
  // Also prices gemini-3.1-pro-preview-customtools (a name it is a part of).
  'gemini-3.1-pro-preview': tiered(2, 12, 0.2, { input: 4, output: 18, cached: 0.4 }),
  'gemini-3.1-flash-lite': flat(0.25, 1.5, 0.025),
  // gemini-3.5-flash-lite (named by gemini 0.61.0, not in the catalogue) falls to this entry: the higher side, for budgets.
  'gemini-3.5-flash': flat(1.5, 9, 0.15),
  'gemini-3.8-flash': flat(0.75, 3.75, 0.075),
};
