import { describe, expect, it } from 'vitest';
import { OPENAI_PRICES, OPENAI_PRICES_AS_OF } from '../../../src/agent/codex/openai-prices.js';
import { estimateCost } from '../../../src/cost/estimate.js';
import { priceFor, type PriceTable } from '../../../src/cost/prices.js';

const table: PriceTable = OPENAI_PRICES;
const tokens = (tokens: Partial<Parameters<typeof estimateCost>[0]>) => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, ...tokens });

describe('OpenAI prices in debussy price table', () => {
  it('are dated', () => {
    expect(OPENAI_PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2} /);
  });

  it.each([
    ['gpt-5.5', 'gpt-5.5'],
    ['gpt-5.4-mini', 'gpt-5.4-mini'],
    ['gpt-5.4', 'gpt-5.4'],
    ['gpt-5.6-terra', 'gpt-5.6-terra'],
    ['gpt-6.2-sol', undefined],
  ])('%s is priced as %s', (model, entry) => {
    expect(priceFor(model, table).entry).toBe(entry);
  });

  it('prices a gpt-5.5 call: cached input at a tenth, a prompt over 272,000 tokens at the long tier', () => {
    expect(estimateCost(tokens({ inputTokens: 200_000 }), 'gpt-5.5', table).usd).toBeCloseTo(1, 9);
    expect(estimateCost(tokens({ cacheReadTokens: 200_000 }), 'gpt-5.5', table).usd).toBeCloseTo(0.1, 9);
    expect(estimateCost(tokens({ inputTokens: 1_000_000 }), 'gpt-5.5', table).usd).toBe(10);
    expect(estimateCost(tokens({ inputTokens: 100_000, cacheReadTokens: 100_000, outputTokens: 10_000 }), 'gpt-5.5', table).usd).toBeCloseTo(0.5 + 0.05 + 0.3, 9);
    expect(estimateCost(tokens({ outputTokens: 1_000_000, inputTokens: 300_000 }), 'gpt-5.5', table).usd).toBeCloseTo(45 + 3, 9);
  });

  it('prices gpt-5.6 cache writes at 1.25x input', () => {
    expect(estimateCost(tokens({ cacheCreationTokens: 1_000_000 }), 'gpt-5.6-sol', table).usd).toBe(6.25);
  });
});
