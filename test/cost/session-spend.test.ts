import { describe, expect, it } from 'vitest';
import { SHIPPED_PRICES } from '../../src/cost/prices.js';
import { SessionSpend } from '../../src/cost/session-spend.js';

const usage = (messageId: string, model: string, inputTokens: number, cacheReadTokens = 0, cacheCreationTokens = 0) =>
  ({ type: 'usage', messageId, model, inputTokens, cacheReadTokens, cacheCreationTokens, contextTokens: inputTokens + cacheReadTokens + cacheCreationTokens }) as const;

describe('SessionSpend', () => {
  it('estimates from the stream until the result gives the exact figure', () => {
    const spend = new SessionSpend(SHIPPED_PRICES);
    spend.observe(usage('m1', 'claude-opus-4-8', 20_000));
    spend.observe({ type: 'output_usage', outputTokens: 10_000 });
    expect(spend.figure()).toMatchObject({ estimated: true, tokens: { inputTokens: 20_000, outputTokens: 10_000 } });
    expect(spend.figure().usd).toBeCloseTo(0.35, 9);
    expect(spend.nextTurnUsd()).toBeCloseTo(0.35, 9);
    spend.observe(usage('m2', 'claude-haiku-4-5', 0, 1_000_000, 1_000_000));
    expect(spend.figure().usd).toBeCloseTo(0.35 + 0.1 + 1.25, 9);
    spend.observe({ type: 'result', subtype: 'success', isError: false, costUsd: 1.8, inputTokens: 1, outputTokens: 1 });
    expect(spend.figure()).toMatchObject({ usd: 1.8, estimated: false });
    expect(spend.nextTurnUsd()).toBe(0);
  });

  it('names a model the table does not know', () => {
    const spend = new SessionSpend(SHIPPED_PRICES);
    spend.observe(usage('m1', 'someone-elses-model', 1_000_000));
    expect(spend.figure()).toMatchObject({ usd: 4, estimated: true, unknownModel: 'someone-elses-model' });
  });

  it('prices each call by its own prompt: a long prompt pays the long-prompt tier, a short one does not', () => {
    const spend = new SessionSpend(SHIPPED_PRICES);
    spend.observe(usage('m1', 'claude-haiku-5-5', 50_000));
    spend.observe({ type: 'output_usage', outputTokens: 1_000 });
    spend.observe(usage('m2', 'claude-haiku-5-5', 150_000));
    spend.observe({ type: 'output_usage', outputTokens: 1_000 });
    // 50k x $0.1 + 1k x $0.5, then 150k x $0.5 + 1k x $2.5 (per million).
    expect(spend.figure().usd).toBeCloseTo(0.005 + 0.0005 + 0.075 + 0.0025, 9);
    expect(spend.figure().tokens).toMatchObject({ inputTokens: 200_000, outputTokens: 2_000 });
  });

  it('costs nothing before the first call', () => {
    expect(new SessionSpend(SHIPPED_PRICES).figure()).toMatchObject({ usd: 0, estimated: true });
  });
});
