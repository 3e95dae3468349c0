import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/lib/corpus.js';
import { evenGrowthShares, growthShareAt, quantile, REAL_GROWTH_SHARE_QUANTILES, realShareQuantiles, shareQuantiles } from '../../bench/lib/real-growth.js';

describe('the real growth distribution figure 3 sizes its calls by', () => {
  it.each([
    ['its median', 0.5, 0.781],
    ['its p90', 0.9, 3.998],
    ['halfway between p90 and p95', 0.925, (3.998 + 7.468) / 2],
    ['its lowest bound', 0, -0.3],
    ['its highest bound', 1, 25],
  ])('gives %s at u = %s', (_, u, share) => {
    expect(growthShareAt(u)).toBeCloseTo(share, 6);
  });

  it('is a table of rising quantiles and shares from 0 to 1', () => {
    const qs = REAL_GROWTH_SHARE_QUANTILES.map(([q]) => q);
    expect(qs[0]).toBe(0);
    expect(qs.at(-1)).toBe(1);
    for (let i = 1; i < REAL_GROWTH_SHARE_QUANTILES.length; i++) {
      const [q0, v0] = REAL_GROWTH_SHARE_QUANTILES[i - 1] ?? [0, 0];
      const [q1, v1] = REAL_GROWTH_SHARE_QUANTILES[i] ?? [0, 0];
      expect(q1).toBeGreaterThan(q0);
      expect(v1).toBeGreaterThanOrEqual(v0);
    }
  });

  it('draws a session of 80 calls whose median and p90 are the real ones, within a rank', () => {
    const next = evenGrowthShares(seededRandom(5));
    const draws = Array.from({ length: 80 }, () => next());
    expect(quantile(draws, 0.5)).toBeGreaterThan(growthShareAt(0.48));
    expect(quantile(draws, 0.5)).toBeLessThan(growthShareAt(0.52));
    expect(quantile(draws, 0.9)).toBeGreaterThan(growthShareAt(0.88));
    expect(quantile(draws, 0.9)).toBeLessThan(growthShareAt(0.92));
  });

  it('prints the same quantiles for a session and for the real table', () => {
    expect(realShareQuantiles()).toEqual({ p10: 0.218, p25: 0.404, p50: 0.781, p75: 1.632, p90: 3.998, p95: 7.468 });
    expect(shareQuantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual({ p10: 1, p25: 3, p50: 5, p75: 8, p90: 9, p95: 10 });
  });
});
