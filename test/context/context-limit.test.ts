import { describe, expect, it } from 'vitest';
import { describeLimit, effectiveLimit } from '../../src/context/index.js';

describe('effectiveLimit', () => {
  it.each([
    [200_000, 80, 400_000, { tokens: 160_000, source: 'context_threshold' }],
    [1_000_000, 80, 400_000, { tokens: 400_000, source: 'max_context_tokens' }],
    [1_000_000, 80, undefined, { tokens: 800_000, source: 'context_threshold' }],
    [undefined, 80, 400_000, { tokens: 400_000, source: 'max_context_tokens' }],
    [200_000, 100, 400_000, { tokens: 400_000, source: 'max_context_tokens' }],
    [200_000, 100, undefined, undefined],
    [undefined, 80, undefined, undefined],
    [500_000, 80, 400_000, { tokens: 400_000, source: 'context_threshold' }],
  ])('window %s, threshold %s%%, cap %s -> %j', (window, thresholdPercent, maxContextTokens, expected) => {
    expect(effectiveLimit({ window, thresholdPercent, maxContextTokens })).toEqual(expected);
  });

  it('describes the limit with where it came from', () => {
    expect(describeLimit({ tokens: 160_000, source: 'context_threshold' }, 200_000, 80)).toBe('160,000 tokens (80% of 200,000)');
    expect(describeLimit({ tokens: 400_000, source: 'max_context_tokens' }, 1_000_000, 80)).toBe('400,000 tokens (max_context_tokens)');
    expect(describeLimit(undefined, undefined, 80)).toBe('none until the window is known');
  });
});
