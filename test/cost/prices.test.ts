import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/cost/estimate.js';
import { FALLBACK_PRICE, priceFor, SHIPPED_PRICES, withPriceOverrides } from '../../src/cost/prices.js';

describe('priceFor', () => {
  it.each([
    ['claude-opus-4-8', 'claude-opus-4-8', 5],
    ['claude-opus-4-8[1m]', 'claude-opus-4-8', 5],
    ['claude-opus-4-20250514', 'claude-opus-4', 15],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1', 15],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 3],
    ['claude-sonnet-5', 'claude-sonnet-5', 2],
    ['claude-sonnet-5-5', 'claude-sonnet-5-5', 2],
    ['claude-opus-5-5', 'claude-opus-5-5', 4],
    ['claude-haiku-5-5', 'claude-haiku-5-5', 0.1],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5', 1],
    ['claude-3-5-haiku-20241022', 'claude-3-5-haiku', 0.8],
    ['us.anthropic.claude-opus-4-1-20250805-v1:0', 'claude-opus-4-1', 15],
  ])('%s is priced as %s', (model, entry, input) => {
    const found = priceFor(model, SHIPPED_PRICES);
    expect(found.entry).toBe(entry);
    expect(found.price.input).toBe(input);
  });

  it('prices an unknown model as claude does (its default model) and says it is unknown', () => {
    expect(priceFor('gpt-5', SHIPPED_PRICES)).toEqual({ price: FALLBACK_PRICE, entry: undefined });
    expect(priceFor('claude-opus-4-88', SHIPPED_PRICES).entry).toBe('claude-opus-4');
  });
});

describe('estimateCost', () => {
  it.each([
    // Measured with claude 2.1.332 (its total_cost_usd): 10,563 input and 1 output token on claude-sonnet-5-5.
    [{ inputTokens: 10_563, outputTokens: 1, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-sonnet-5-5', 0.021136],
    // Measured: one call of 1,000,000 input tokens: claude-haiku-5-5 (its long-prompt tier), -opus-5-5, -sonnet-5-5.
    [{ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-haiku-5-5', 0.5],
    [{ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-opus-5-5', 4],
    [{ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-sonnet-5-5', 2],
    // Below the long-prompt line, haiku 5.5's own tier.
    [{ inputTokens: 100_000, outputTokens: 10_000, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-haiku-5-5', 0.015],
    // Measured: 2 x (20,000 input + 10,000 output) on claude-opus-4-8 -> total_cost_usd 0.7.
    [{ inputTokens: 40_000, outputTokens: 20_000, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-opus-4-8', 0.7],
    [{ inputTokens: 0, outputTokens: 0, cacheReadTokens: 1_000_000, cacheCreationTokens: 1_000_000 }, 'claude-opus-4-8', 6.75],
    [{ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 }, 'claude-opus-4-1', 15],
  ])('%o on %s costs $%f', (usage, model, usd) => {
    const estimate = estimateCost(usage, model, SHIPPED_PRICES);
    expect(estimate.usd).toBeCloseTo(usd, 9);
    expect(estimate.estimated).toBe(true);
    expect(estimate.priceKnown).toBe(true);
  });
});

describe('withPriceOverrides', () => {
  it('adds and replaces models', () => {
    const { table, problems } = withPriceOverrides({ 'my-model': '1 / 2 / 3 / 0.5', 'claude-opus-4-8': '6/30/7.5/0.6' });
    expect(problems).toEqual([]);
    expect(table['my-model']).toEqual({ input: 1, output: 2, cacheWrite: 3, cacheRead: 0.5 });
    expect(priceFor('claude-opus-4-8[1m]', table).price.output).toBe(30);
    expect(SHIPPED_PRICES['claude-opus-4-8']?.output).toBe(25);
  });

  it.each(['1/2/3', 'cheap', '1/2/3/-1', '1/2/x/4'])('names a malformed entry (%s)', (text) => {
    const { problems } = withPriceOverrides({ m: text });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('prices.m');
  });
});
