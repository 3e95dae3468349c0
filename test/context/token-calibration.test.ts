import { describe, expect, it } from 'vitest';
import { DEFAULT_PRIOR, priorFor, TokenCalibration, UNSEEN_JUMP_TOKENS, type GrowthSample } from '../../src/context/index.js';

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

describe('TokenCalibration learning', () => {
  it('converges on the true factor from a few large pairs', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 12; i++) expect(calibration.learn('claude-opus-4-6', pair(3_000 + i * 500, 1.35, 70, 200))).toBe('factor');
    expect(calibration.factorFor('claude-opus-4-6')).toBeGreaterThan(1.33);
    expect(calibration.factorFor('claude-opus-4-6')).toBeLessThan(1.36);
  });

  it('takes the per-call overhead out before the ratio: small and large pairs of one truth agree', () => {
    const calibration = new TokenCalibration();
    // Truth: 1.2 x + 70. Without removing the overhead, a 300-token pair would say 1.43.
    for (let i = 0; i < 20; i++) calibration.learn('claude-opus-4-6', pair(300, 1.2, 70));
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.2, 2);
  });

  it('learns the overhead from pairs with almost nothing counted', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 30; i++) expect(calibration.learn('claude-opus-4-6', pair(20, 1.2, 120, 30))).toBe('overhead');
    expect(calibration.overheadFor('claude-opus-4-6')).toBeGreaterThan(115);
    expect(calibration.overheadFor('claude-opus-4-6')).toBeLessThan(121);
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.2, 10);
  });

  it('clips a pair whose ratio is far outside the band around the prior', () => {
    const calibration = new TokenCalibration();
    // 4,000 counted tokens that grew by 4 x (under the jump limit): learned, but as prior x 1.6 at most.
    expect(calibration.learn('claude-opus-4-6', { countedTokens: 1_000, outputTokens: 0, calls: 1, growth: 4_070 })).toBe('factor');
    const factor = calibration.factorFor('claude-opus-4-6');
    expect(factor).toBeLessThanOrEqual(1.2 * 1.6);
    expect(factor).toBeGreaterThan(1.2);
    const unclipped = (1_500 * 1.2 + 1_000 * 4) / 2_500;
    expect(factor).toBeLessThan(unclipped);
  });

  it('a jump of more than 5,000 unseen tokens does not poison it', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 6; i++) calibration.learn('claude-opus-4-6', pair(2_000, 1.25, 70));
    const before = calibration.factorFor('claude-opus-4-6');
    const jump = pair(2_000, 1.25, 70 + UNSEEN_JUMP_TOKENS + 1_000);
    expect(calibration.learn('claude-opus-4-6', jump)).toBe('jump');
    expect(calibration.factorFor('claude-opus-4-6')).toBe(before);
    expect(calibration.overheadFor('claude-opus-4-6')).toBeCloseTo(70, 5);
    // A shrinking context (cleared tool results) teaches nothing either.
    expect(calibration.learn('claude-opus-4-6', { countedTokens: 500, outputTokens: 0, calls: 1, growth: -9_000 })).toBe('shrink');
    expect(calibration.factorFor('claude-opus-4-6')).toBe(before);
  });

  it('keeps each model apart: a switch starts the new model from its own prior', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-6', pair(4_000, 1.1, 70));
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.1, 2);
    expect(calibration.factorFor('claude-opus-4-7')).toBeCloseTo(1.6, 10);
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-7', pair(4_000, 1.55, 75));
    expect(calibration.factorFor('claude-opus-4-7')).toBeCloseTo(1.55, 2);
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.1, 2);
  });

  it('follows a change of content: recent pairs outweigh old ones', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-6', pair(3_000, 1.1, 70));
    for (let i = 0; i < 10; i++) calibration.learn('claude-opus-4-6', pair(3_000, 1.4, 70));
    expect(calibration.factorFor('claude-opus-4-6')).toBeGreaterThan(1.35);
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

describe('TokenCalibration content kinds', () => {
  const kindPair = (kind: string, counted: number, factor: number): GrowthSample => ({ ...pair(counted, factor, 70), kinds: { [kind]: counted } });

  it('a kind that makes up a pair learns its own factor; an unseen kind uses the model-wide one', () => {
    const calibration = new TokenCalibration();
    for (let i = 0; i < 10; i++) {
      calibration.learn('claude-opus-4-6', kindPair('Read', 3_000, 1.1));
      calibration.learn('claude-opus-4-6', kindPair('Bash', 3_000, 1.4));
    }
    expect(calibration.factorFor('claude-opus-4-6', 'Read')).toBeLessThan(1.15);
    expect(calibration.factorFor('claude-opus-4-6', 'Bash')).toBeGreaterThan(1.35);
    const overall = calibration.factorFor('claude-opus-4-6');
    expect(calibration.factorFor('claude-opus-4-6', 'Grep')).toBe(overall);
  });

  it('a pair of mixed kinds teaches only the model-wide factor', () => {
    const calibration = new TokenCalibration();
    calibration.learn('claude-opus-4-6', { ...pair(4_000, 1.5, 70), kinds: { Read: 2_000, Bash: 2_000 } });
    expect(calibration.factorFor('claude-opus-4-6', 'Read')).toBe(calibration.factorFor('claude-opus-4-6'));
    expect(calibration.factorFor('claude-opus-4-6')).toBeGreaterThan(1.2);
  });

  it('jump detection counts each kind at its own factor', () => {
    const calibration = new TokenCalibration();
    // Before Grep is known, 10,000 of its tokens growing by 1.9 x leave 7,000 unexplained: a jump.
    expect(calibration.learn('claude-opus-4-6', kindPair('Grep', 10_000, 1.9))).toBe('jump');
    for (let i = 0; i < 10; i++) expect(calibration.learn('claude-opus-4-6', kindPair('Grep', 2_000, 1.9))).toBe('factor');
    // Once Grep is known to count 1.9 x, the same pair is expected.
    expect(calibration.learn('claude-opus-4-6', kindPair('Grep', 10_000, 1.9))).toBe('factor');
  });
});
