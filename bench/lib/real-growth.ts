/**
 * How much one API call adds to the context in real Claude Code sessions: the growth between two
 * consecutive reported requests of a session's main chain, as % of the later one. Measured on the
 * 178 held-out public sessions of docs/restart-flow.md (Claude 4.x models, 10,002 calls, the calls
 * `bench/context-replay.ts` compares; `npx tsx bench/context-replay.ts DIR --json` prints these
 * quantiles as `growthSharePercent`). Figure 3's scripted session draws its growths from this
 * table, so its calls are sized like real ones. Below 0 are calls after Claude Code cleared
 * content; a scripted agent cannot shrink its context, so those draw its smallest call.
 */
import { round } from './figure.js';

/** How many real calls the table is taken from. */
export const REAL_GROWTH_CALLS = 10_002;

/** [quantile, growth as % of the context], measured 2026-11-27; the bounds at 0 and 1 are set here (the extremes are single calls). */
export const REAL_GROWTH_SHARE_QUANTILES: readonly (readonly [number, number])[] = [
  [0, -0.3], [0.01, -0.204], [0.05, 0.151], [0.1, 0.218], [0.15, 0.282], [0.2, 0.339], [0.25, 0.404],
  [0.3, 0.47], [0.35, 0.537], [0.4, 0.613], [0.45, 0.691], [0.5, 0.781], [0.55, 0.888], [0.6, 1.019],
  [0.65, 1.168], [0.7, 1.358], [0.75, 1.632], [0.8, 2.024], [0.85, 2.758], [0.9, 3.998], [0.95, 7.468],
  [0.98, 13.176], [0.99, 18.566], [1, 25],
];

/** The growth share (%) at cumulative probability `u` of the real distribution: its table, linear between points. */
export function growthShareAt(u: number): number {
  const table = REAL_GROWTH_SHARE_QUANTILES;
  for (let i = 1; i < table.length; i++) {
    const [q1, v1] = table[i] as readonly [number, number];
    const [q0, v0] = table[i - 1] as readonly [number, number];
    if (u <= q1) return v0 + ((u - q0) / (q1 - q0)) * (v1 - v0);
  }
  return (table[table.length - 1] as readonly [number, number])[1];
}

/**
 * Growth shares (%) drawn from the real distribution along a golden-ratio sequence from a random
 * start: every run of consecutive draws spreads evenly over the distribution, so that a session
 * of ~80 calls spans it as a whole instead of as far as chance takes it (iid draws put its p90
 * anywhere from about 3% to 6%), and the large calls come spread through the session.
 */
export function evenGrowthShares(random: () => number): () => number {
  let u = random();
  return () => {
    u = (u + GOLDEN_STEP) % 1;
    return growthShareAt(u);
  };
}

const GOLDEN_STEP = (Math.sqrt(5) - 1) / 2;

/** The quantile of `values` (nearest rank), as context-replay.ts and figure 3 take it. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

const SHOWN = [0.1, 0.25, 0.5, 0.75, 0.9, 0.95] as const;

/** p10, p25, p50, p75, p90 and p95 of growth shares (%), for printing two distributions side by side. */
export function shareQuantiles(shares: readonly number[]): Record<string, number> {
  return Object.fromEntries(SHOWN.map((q) => [`p${Math.round(q * 100)}`, round(quantile(shares, q), 3)]));
}

/** The same quantiles of the real table. */
export function realShareQuantiles(): Record<string, number> {
  const at = (q: number) => REAL_GROWTH_SHARE_QUANTILES.find(([p]) => Math.abs(p - q) < 1e-9)?.[1] ?? Number.NaN;
  return Object.fromEntries(SHOWN.map((q) => [`p${Math.round(q * 100)}`, at(q)]));
}
