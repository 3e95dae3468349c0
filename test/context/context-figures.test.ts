/** describeCrossing: the one sentence for a crossing, said by the reporters, the stop and restart reasons. */
import { describe, expect, it } from 'vitest';
import { describeCrossing, type CrossingFigures } from '../../src/context/index.js';

const at = (over: Partial<CrossingFigures>): CrossingFigures => ({ trigger: 'context', threshold: 80, usedTokens: 165_000, contextWindow: 200_000, percent: 82.5, toolCalls: 12, ...over });

describe('describeCrossing', () => {
  it.each<[string, CrossingFigures, string]>([
    ['the context threshold', at({}), 'context at 82.5% of 200,000 tokens crossed the 80% threshold'],
    ['the threshold, by the limit it set', at({ limit: { tokens: 160_000, source: 'context_threshold' } }), 'context at 82.5% of 200,000 tokens crossed the 80% threshold'],
    ['an old journal: window 0 for unknown', at({ contextWindow: 0, percent: 0 }), 'context at 0.0% crossed the 80% threshold'],
    ['an unknown window', at({ contextWindow: undefined, percent: 0 }), 'context at 0.0% crossed the 80% threshold'],
    [
      'max_context_tokens below the percentage',
      at({ usedTokens: 300_500, contextWindow: 1_000_000, percent: 30.05, limit: { tokens: 300_000, source: 'max_context_tokens' } }),
      'context at 300,500 tokens (30.1% of 1,000,000) crossed max_context_tokens 300,000',
    ],
    ['max_context_tokens, window unknown', at({ usedTokens: 300_500, contextWindow: undefined, percent: 0, limit: { tokens: 300_000, source: 'max_context_tokens' } }), 'context at 300,500 tokens crossed max_context_tokens 300,000'],
    ['the tool-call threshold', at({ trigger: 'tool_calls', threshold: 40, toolCalls: 40 }), '40 tool calls reached the tool-call threshold 40'],
  ])('%s', (_name, crossing, sentence) => {
    expect(describeCrossing(crossing)).toBe(sentence);
  });
});
