import { describe, expect, it } from 'vitest';
import { DEFAULT_PRIOR, FACTOR_SAMPLE_TOKENS, learnVerdict, priorFor, RATIO_CLIP, TokenCalibration, UNSEEN_JUMP_TOKENS, type GrowthSample } from '../../src/context/index.js';

/** A pair whose growth is exactly factor x counted + overhead + output. */
function pair(counted: number, factor: number, overhead: number, output = 0): GrowthSample {
  return { countedTokens: counted, outputTokens: output, calls: 1, growth: Math.round(counted * factor + overhead + output) };
}

describe('model priors', () => {
  it.each([
    ['claude-opus-4-6', 1.2, 70],
    ['claude-sonnet-4-5', 1.2, 70],
    ['claude-sonnet-4-20250514', 1.2, 70],
    ['claude-haiku-4-5-20251001', 1.2, 120],
    ['claude-opus-4-7', 1.6, 75],
    ['claude-opus-4-8[1m]', 1.6, 75],
    ['claude-sonnet-5', 1.6, 75],
    ['opus', 1.2, 70],
    ['some-proxy-model', 1.2, 70],
  ])('%s starts at %s x cl100k + %s per call', (model, factor, overhead) => {
    expect(priorFor(model)).toMatchObject({ factor, overheadPerCall: overhead });
    expect(priorFor(model).source).not.toBe('');
  });

  it('a calibration that has seen nothing answers with the prior', () => {
    const calibration = new TokenCalibration();
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(DEFAULT_PRIOR.factor, 10);
    expect(calibration.overheadFor('claude-opus-4-6')).toBeCloseTo(DEFAULT_PRIOR.overheadPerCall, 10);
    expect(calibration.factorFor(undefined)).toBeCloseTo(DEFAULT_PRIOR.factor, 10);
  });
});

describe('what a pair can teach (learnVerdict)', () => {
  it.each([
    ['a shrinking context (cleared tool results, a compaction)', { countedTokens: 500, growth: -9_000 }, 0, 'shrink'],
    ['growth the projection misses by more than 5,000 tokens', { countedTokens: 3_000, growth: 12_000 }, UNSEEN_JUMP_TOKENS + 1, 'jump'],
    ['exactly 5,000 unexplained tokens: still learned from', { countedTokens: 3_000, growth: 9_000 }, UNSEEN_JUMP_TOKENS, 'factor'],
    ['almost nothing counted', { countedTokens: 20, growth: 150 }, 50, 'overhead'],
    ['a few hundred counted tokens: what no one sees outweighs them', { countedTokens: 800, growth: 1_650 }, 600, 'overhead'],
    ['just under the factor sample size', { countedTokens: FACTOR_SAMPLE_TOKENS - 1, growth: 2_500 }, 0, 'overhead'],
    ['a large tool result', { countedTokens: FACTOR_SAMPLE_TOKENS, growth: 2_500 }, 0, 'factor'],
    ['a large result that shrank the context', { countedTokens: 20_000, growth: -1 }, 0, 'shrink'],
  ])('%s: %s', (_what, partial, unexplained, verdict) => {
    expect(learnVerdict({ outputTokens: 0, calls: 1, ...partial }, unexplained)).toBe(verdict);
  });
});

describe('TokenCalibration learning', () => {
  it('converges on the true factor from a few large pairs', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 12; i++) expect(calibration.learn('claude-opus-4-6', pair(3_000 + i * 500, 1.28, 70, 200))).toBe('factor');
    expect(calibration.factorFor('claude-opus-4-6')).toBeGreaterThan(1.27);
    expect(calibration.factorFor('claude-opus-4-6')).toBeLessThan(1.29);
  });

  it('takes the per-call overhead out before the ratio: its share does not inflate the factor', () => {
    const calibration = new TokenCalibration();
    // Truth: 1.15 x + 120 per call (the overhead prior is 70, learned from small pairs in between).
    for (let i = 0; i < 20; i++) {
      calibration.learn('claude-opus-4-6', pair(50, 1.15, 120));
      calibration.learn('claude-opus-4-6', pair(2_500, 1.15, 120));
    }
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.15, 2);
  });

  it('learns the overhead from pairs with little counted', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 30; i++) expect(calibration.learn('claude-opus-4-6', pair(20, 1.2, 120, 30))).toBe('overhead');
    expect(calibration.overheadFor('claude-opus-4-6')).toBeGreaterThan(115);
    expect(calibration.overheadFor('claude-opus-4-6')).toBeLessThan(121);
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.2, 10);
  });

  it(`keeps each pair's ratio within prior / ${RATIO_CLIP} .. prior x ${RATIO_CLIP}`, () => {
    const high = new TokenCalibration();
    for (let i = 0; i < 30; i++) high.learn('claude-opus-4-6', pair(3_000, 2.5, 70));
    expect(high.factorFor('claude-opus-4-6')).toBeCloseTo(1.2 * RATIO_CLIP, 3);
    const low = new TokenCalibration();
    for (let i = 0; i < 30; i++) low.learn('claude-opus-4-7', pair(3_000, 1.0, 75));
    expect(low.factorFor('claude-opus-4-7')).toBeCloseTo(1.6 / RATIO_CLIP, 3);
  });

  it('a jump of more than 5,000 unseen tokens does not poison it', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 6; i++) calibration.learn('claude-opus-4-6', pair(3_000, 1.25, 70));
    const before = calibration.factorFor('claude-opus-4-6');
    const jump = pair(3_000, 1.25, 70 + UNSEEN_JUMP_TOKENS + 1_000);
    expect(calibration.learn('claude-opus-4-6', jump)).toBe('jump');
    expect(calibration.factorFor('claude-opus-4-6')).toBe(before);
    expect(calibration.overheadFor('claude-opus-4-6')).toBeCloseTo(70, 5);
    expect(calibration.learn('claude-opus-4-6', { countedTokens: 500, outputTokens: 0, calls: 1, growth: -9_000 })).toBe('shrink');
    expect(calibration.factorFor('claude-opus-4-6')).toBe(before);
  });

  it('keeps each model apart: a switch starts the new model from its own prior', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-6', pair(4_000, 1.1, 70));
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.1, 2);
    expect(calibration.factorFor('claude-opus-4-7')).toBeCloseTo(1.6, 10);
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-7', pair(4_000, 1.7, 75));
    expect(calibration.factorFor('claude-opus-4-7')).toBeCloseTo(1.7, 2);
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.1, 2);
  });

  it('follows a change of content: recent pairs outweigh old ones', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-6', pair(3_000, 1.1, 70));
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-6', pair(3_000, 1.3, 70));
    expect(calibration.factorFor('claude-opus-4-6')).toBeGreaterThan(1.25);
  });
});

describe('TokenCalibration on what no estimator sees', () => {
  // The shape of a held-out public transcript (claude-sonnet-4, Claude Code 1.0): edits and todo
  // updates of a few hundred counted tokens, each request also carrying 200-500 tokens the stream
  // never shows (reminders, tool framing), then a 22,000-token Read that grew the context by 1.17 x
  // its count. The learner that took those small pairs as evidence of the factor had it at 1.56
  // (1.70 for Read) and projected that request 11,600 tokens, 21% of the context, too high.
  const SMALL_PAIRS: GrowthSample[] = [
    { countedTokens: 300, outputTokens: 0, calls: 1, growth: 601 },
    { countedTokens: 356, outputTokens: 0, calls: 1, growth: 591 },
    { countedTokens: 274, outputTokens: 0, calls: 1, growth: 432 },
    { countedTokens: 850, outputTokens: 0, calls: 1, growth: 1_651 },
    { countedTokens: 181, outputTokens: 0, calls: 1, growth: 641 },
  ];
  const READ_TOKENS = 22_152;
  const TRUE_READ_GROWTH = 26_080;

  it('small pairs teach the overhead (clipped), never the factor', () => {
    const calibration = new TokenCalibration();
    for (const sample of SMALL_PAIRS) expect(calibration.learn('claude-sonnet-4-20250514', sample)).toBe('overhead');
    expect(calibration.factorFor('claude-sonnet-4-20250514')).toBe(1.2);
    expect(calibration.overheadFor('claude-sonnet-4-20250514')).toBeLessThanOrEqual(140);
  });

  it('the large read after them is projected within 3% of its growth, not a third over', () => {
    const calibration = new TokenCalibration();
    for (const sample of SMALL_PAIRS) calibration.learn('claude-sonnet-4-20250514', sample);
    const projectedGrowth = calibration.factorFor('claude-sonnet-4-20250514') * READ_TOKENS + calibration.overheadFor('claude-sonnet-4-20250514');
    expect(Math.abs(projectedGrowth - TRUE_READ_GROWTH) / TRUE_READ_GROWTH).toBeLessThan(0.03);
  });
});

describe('TokenCalibration overhead', () => {
  it('a small pair with an odd growth moves the overhead by at most twice the prior', () => {
    const calibration = new TokenCalibration();
    calibration.learn('claude-opus-4-6', { countedTokens: 10, outputTokens: 0, calls: 1, growth: 3_000 });
    // The prior (3 pairs of 70, faded by 0.9) and one pair counted as 140, not 2,930.
    expect(calibration.overheadFor('claude-opus-4-6')).toBeCloseTo((0.9 * 3 * 70 + 140) / (0.9 * 3 + 1), 6);
  });
});
