/**
 * What a model's tokens cost, in USD per million tokens. The shipped table is Claude Code's own
 * (read from the model catalog inside claude 2.1.332, the version debussy is tested with; its
 * total_cost_usd is computed from the same figures), so an estimate of a session stopped before
 * its result agrees with what claude would have reported. `prices` in the config overrides or
 * adds models. Pure.
 */

import { OPENAI_PRICES } from '../agent/codex/openai-prices.js';
import { GOOGLE_PRICES } from '../agent/gemini/google-prices.js';

export interface TokenPrices {
  input: number;
  output: number;
  /** Writing the prompt cache (claude's 5-minute cache). */
  cacheWrite: number;
  cacheRead: number;
}

export interface ModelPrice extends TokenPrices {
  /** A dearer tier for a call whose prompt (input, cache reads and writes) is above `aboveTokens`. */
  longPrompt?: TokenPrices & { aboveTokens: number };
}

/** When the shipped table was taken from claude (shown beside every estimate in the docs). */
export const PRICES_AS_OF = '2026-11-26 (claude 2.1.332)';

const HAIKU_3_5: ModelPrice = { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 };
const HAIKU_4_5: ModelPrice = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 };
const HAIKU_5_5: ModelPrice = {
  input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01,
  longPrompt: { aboveTokens: 100_000, input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
};
const SONNET_4: ModelPrice = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
const SONNET_5: ModelPrice = { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 };
const SONNET_5_5: ModelPrice = { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 };
const OPUS_4_0: ModelPrice = { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 };
const OPUS_4_5: ModelPrice = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 };
const OPUS_5_5: ModelPrice = { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 };
const TIER_10_50: ModelPrice = { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 };
const TIER_10_50_READ_0_25: ModelPrice = { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 };
const TIER_8_40: ModelPrice = { input: 8, output: 40, cacheWrite: 10, cacheRead: 0.2 };

/** Model name (without date suffix or `[1m]`) to price. */
export const SHIPPED_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-3-5-haiku': HAIKU_3_5,
  'claude-haiku-4-5': HAIKU_4_5,
  'claude-haiku-5-5': HAIKU_5_5,
  'claude-3-5-sonnet': SONNET_4,
  'claude-3-7-sonnet': SONNET_4,
  'claude-sonnet-4': SONNET_4,
  'claude-sonnet-4-5': SONNET_4,
  'claude-sonnet-4-6': SONNET_4,
  'claude-sonnet-5': SONNET_5,
  'claude-sonnet-5-5': SONNET_5_5,
  'claude-opus-4': OPUS_4_0,
  'claude-opus-4-1': OPUS_4_0,
  'claude-opus-4-5': OPUS_4_5,
  'claude-opus-4-6': OPUS_4_5,
  'claude-opus-4-7': OPUS_4_5,
  'claude-opus-4-8': OPUS_4_5,
  'claude-opus-5': OPUS_4_5,
  'claude-opus-5-5': OPUS_5_5,
  'claude-fable-5': TIER_10_50,
  'claude-fable-5-1': TIER_10_50_READ_0_25,
  'claude-fable-5-2': TIER_8_40,
  'claude-mythos-5': TIER_10_50,
  'claude-mythos-5-1': TIER_10_50_READ_0_25,
  'claude-mythos-5-2': TIER_8_40,
  // The models codex runs (agent: codex), OpenAI's list prices (agent/codex/openai-prices.ts).
  ...OPENAI_PRICES,
  // The models gemini runs (agent: gemini), Google's list prices (agent/gemini/google-prices.ts).
  ...GOOGLE_PRICES,
};

/** claude prices a model it does not know as its default model (Opus 5.5): so does debussy, and says so. */
export const FALLBACK_PRICE: ModelPrice = OPUS_5_5;

/** The prices a call pays: the long-prompt tier when its prompt is above the tier's line. */
export function pricesForCall(price: ModelPrice, promptTokens: number): TokenPrices {
  return price.longPrompt !== undefined && promptTokens > price.longPrompt.aboveTokens ? price.longPrompt : price;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export interface PriceLookup {
  price: ModelPrice;
  /** The table entry used; undefined when the model is unknown and FALLBACK_PRICE stands in. */
  entry: string | undefined;
}

/**
 * The price of `model`: the longest table name that starts the model's name at a word boundary
 * (`claude-opus-4-8[1m]`, `claude-sonnet-4-20250514`, `us.anthropic.claude-opus-4-1-v1`).
 */
export function priceFor(model: string, table: PriceTable): PriceLookup {
  const name = model.toLowerCase();
  let best: string | undefined;
  for (const entry of Object.keys(table)) {
    const at = name.indexOf(entry.toLowerCase());
    if (at < 0) continue;
    const before = at === 0 ? '' : name[at - 1];
    const after = name[at + entry.length];
    const boundedBefore = before === '' || before === '.' || before === '/';
    const boundedAfter = after === undefined || after === '-' || after === '[' || after === '@' || after === ':';
    if (boundedBefore && boundedAfter && (best === undefined || entry.length > best.length)) best = entry;
  }
  const price = best === undefined ? undefined : table[best];
  return price === undefined ? { price: FALLBACK_PRICE, entry: undefined } : { price, entry: best };
}

export type PriceOverrides = { table: PriceTable; problems: string[] };

/**
 * The `prices` config key: model name to "input / output / cache write / cache read" in USD per
 * million tokens, e.g. `{"claude-opus-4-8": "5 / 25 / 6.25 / 0.5"}`. Entries add to or replace the
 * shipped table; a malformed one is a problem, named.
 */
export function withPriceOverrides(overrides: Readonly<Record<string, string>>): PriceOverrides {
  const table: Record<string, ModelPrice> = { ...SHIPPED_PRICES };
  const problems: string[] = [];
  for (const [model, text] of Object.entries(overrides)) {
    const figures = text.split('/').map((part) => Number(part.trim()));
    const [input, output, cacheWrite, cacheRead] = figures;
    if (figures.length !== 4 || input === undefined || output === undefined || cacheWrite === undefined || cacheRead === undefined || figures.some((n) => !Number.isFinite(n) || n < 0)) {
      problems.push(`prices.${model}: "${text}" is not four prices "input / output / cache write / cache read" in USD per million tokens, e.g. "5 / 25 / 6.25 / 0.5"`);
      continue;
    }
    table[model] = { input, output, cacheWrite, cacheRead };
  }
  return { table, problems };
}
