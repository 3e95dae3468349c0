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
    ['gemini-3-flash-preview', 'gemini-3-flash-preview'],
    ['gemini-3.1-pro-preview', 'gemini-3.1-pro-preview'],
    ['gemini-3.1-pro-preview-customtools', 'gemini-3.1-pro-preview'],
    ['gemini-3.1-flash-lite', 'gemini-3.1-flash-lite'],
    ['gemini-3.5-flash', 'gemini-3.5-flash'],
    ['gemini-3.8-flash', 'gemini-3.8-flash'],
    ['gemini-3.5-flash-lite', 'gemini-3.5-flash'],
  ])('%s is priced as %s, in the default table too', (model, entry) => {
    expect(priceFor(model, table).entry).toBe(entry);
    expect(priceFor(model, SHIPPED_PRICES).entry).toBe(entry);
  });

  it('prices a gemini-2.5-pro call: cached input at a tenth, a prompt over 200,000 tokens at the long tier', () => {
    expect(estimateCost(tokens({ inputTokens: 100_000, outputTokens: 10_000 }), 'gemini-2.5-pro', table).usd).toBeCloseTo(0.125 + 0.1, 9);
    expect(estimateCost(tokens({ cacheReadTokens: 100_000 }), 'gemini-2.5-pro', table).usd).toBeCloseTo(0.0125, 9);
    expect(estimateCost(tokens({ inputTokens: 300_000, outputTokens: 1_000 }), 'gemini-2.5-pro', table).usd).toBeCloseTo(0.75 + 0.015, 9);
  });

  it("has a price for each model gemini 0.61.0 names as its own (its pro, flash and flash-lite models and their previews), (3.5-flash-lite, which the catalogue does not list, at 3.5-flash's: the higher side, for budgets)", async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    const dir = createRequire(import.meta.url).resolve('@google/gemini-cli/package.json').replace(/package\.json$/, 'bundle/');
    const bundle = readdirSync(dir).filter((file) => file.endsWith('.js')).map((file) => readFileSync(dir + file, 'utf8')).join('\n');
    const named = new Set([...bundle.matchAll(/(?:PREVIEW_)?GEMINI_[0-9A-Z_]*MODEL = "(gemini-[\w.-]+)"/g)].map((m) => m[1]!).filter((m) => !m.includes('embedding')));
    expect(named.size).toBeGreaterThan(5);
    const unpriced = [...named].filter((model) => priceFor(model, table).entry === undefined);
    expect(unpriced).toEqual([]);
  });
});
