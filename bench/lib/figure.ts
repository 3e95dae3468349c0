/**
 * What every benchmark reports: one figure, its value against a limit measured in the same run
 * (or a fixed target where the issue sets one), and whether the target is met. Plus the small
 * statistics the figures share.
 */
export interface Figure {
  id: number;
  name: string;
  value: number;
  unit: string;
  /** What the value is held against: a measured baseline or the fixed limit. */
  limit: number;
  /** value / limit; null where the limit is 0 (a count that must stay at 0). */
  ratio: number | null;
  /** The target in words, e.g. "ratio >= 0.5". */
  target: string;
  met: boolean;
  /** Everything else measured on the way: samples, breakdowns, profiles. */
  details?: Record<string, unknown>;
}

export interface BenchOptions {
  /** BENCH_QUICK=1: smaller inputs and fewer repetitions, same method. */
  quick: boolean;
  /** Log a progress line (to stderr, so stdout stays the figures). */
  log: (text: string) => void;
}

export type FigureRunner = (options: BenchOptions) => Promise<Figure>;

export function figure(input: Omit<Figure, 'ratio'> & { ratio?: number | null }): Figure {
  const ratio = input.ratio !== undefined ? input.ratio : input.limit === 0 ? null : input.value / input.limit;
  return { ...input, ratio: ratio === null ? null : round(ratio, 4), value: round(input.value, 4), limit: round(input.limit, 4) };
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function max(values: readonly number[]): number {
  return values.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
}

export const MB = 1024 * 1024;
