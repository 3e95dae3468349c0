import { describe, expect, it } from 'vitest';
import { GOOGLE_PRICES, GOOGLE_PRICES_AS_OF } from '../../../src/agent/gemini/google-prices.js';
import { estimateCost } from '../../../src/cost/estimate.js';
import { SHIPPED_PRICES, priceFor, type PriceTable } from '../../../src/cost/prices.js';

// Typed as debussy's own table: the driver's restated price shape must agree with cost/'s.
const table: PriceTable = GOOGLE_PRICES;
const tokens = (tokens: Partial<Parameters<typeof estimateCost>[0]>) => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, ...tokens });

describe("Google's prices in debussy's price table", () => {
  it('are dated', () => {
    expect(GOOGLE_PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2} /);
  });

  it.each([
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
    ['gemini-2.5-flash', 'gemini-2.5-flash'],
    ['gemini-2.5-flash-lite', 'gemini-2.5-flash-lite'],
    ['gemini-3-pro-preview', 'gemini-3-pro-preview'],
  ])('%s is priced as %s, in the default table too', (model, entry) => {
    expect(priceFor(model, table).entry).toBe(entry);
    expect(priceFor(model, SHIPPED_PRICES).entry).toBe(entry);
  });

  it('prices a gemini-2.5-pro call: cached input at a tenth, a prompt over 200,000 tokens at the long tier', () => {
    expect(estimateCost(tokens({ inputTokens: 100_000, outputTokens: 10_000 }), 'gemini-2.5-pro', table).usd).toBeCloseTo(0.125 + 0.1, 9);
    expect(estimateCost(tokens({ cacheReadTokens: 100_000 }), 'gemini-2.5-pro', table).usd).toBeCloseTo(0.0125, 9);
    expect(estimateCost(tokens({ inputTokens: 300_000, outputTokens: 1_000 }), 'gemini-2.5-pro', table).usd).toBeCloseTo(0.75 + 0.015, 9);
  });
});
