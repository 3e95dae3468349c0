/**
 * The error figures of a replay: how far each projection was from the context the API then
 * reported, as a percentage of that context, and, for calls whose context grew by at least
 * 1,000 tokens, as a percentage of the growth (where the estimator's work shows). Pure.
 */
import type { ReplayCall } from './replay-transcript.js';

export const MIN_GROWTH_TOKENS = 1_000;

export interface ErrorFigures {
  compared: number;
  medianPercent: number | null;
  p95Percent: number | null;
  worstPercent: number | null;
}

export interface ReplayFigures {
  calls: number;
  /** Error of the projection, % of the reported context. */
  error: ErrorFigures;
  /** Error of the projected growth, % of the true growth, for growths >= MIN_GROWTH_TOKENS. */
  growthError: ErrorFigures;
  /** Under-projections among the compared calls: the run would have learned of a crossing late. */
  underProjected: number;
  stopBefore: number | null;
  compactedBefore: number[];
}

/** Folds calls one at a time, so a long transcript's rows need not be kept. */
export class ReplayFigureCollector {
  private readonly errors: number[] = [];
  private readonly growthErrors: number[] = [];
  private previous: ReplayCall | undefined;
  private calls = 0;
  private under = 0;
  private stopBefore: number | null = null;
  private readonly compacted: number[] = [];

  add(call: ReplayCall): void {
    this.calls += 1;
    if (call.stopBefore && this.stopBefore === null) this.stopBefore = call.index;
    if (call.compactedBefore) this.compacted.push(call.index);
    if (call.projected !== null && call.reported > 0) {
      this.errors.push((100 * Math.abs(call.projected - call.reported)) / call.reported);
      if (call.projected < call.reported) this.under += 1;
      const before = this.previous?.reported;
      if (before !== undefined && call.reported - before >= MIN_GROWTH_TOKENS) {
        this.growthErrors.push((100 * Math.abs(call.projected - call.reported)) / (call.reported - before));
      }
    }
    this.previous = call;
  }

  figures(): ReplayFigures {
    return {
      calls: this.calls,
      error: errorFigures(this.errors),
      growthError: errorFigures(this.growthErrors),
      underProjected: this.under,
      stopBefore: this.stopBefore,
      compactedBefore: [...this.compacted],
    };
  }
}

export function errorFigures(values: readonly number[]): ErrorFigures {
  if (values.length === 0) return { compared: 0, medianPercent: null, p95Percent: null, worstPercent: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  const median = sorted.length % 2 === 1 ? at(0.5) : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
  return { compared: sorted.length, medianPercent: round(median), p95Percent: round(at(0.95)), worstPercent: round(sorted[sorted.length - 1] ?? 0) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
