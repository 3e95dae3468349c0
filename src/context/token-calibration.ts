/**
 * Learns, per model, how Claude's token count grows with what debussy counts in cl100k. Each pair
 * of consecutive reports of one model is a sample: the context grew by `growth`; the model's own
 * output accounts for `outputTokens` (its exact `output_tokens`), one round trip for a fixed
 * overhead, and the rest for `countedTokens` cl100k tokens of tool results and other text.
 *
 * Robust on purpose. A plain moving average of growth / counted is thrown off by what no
 * estimator sees (reminders the CLI injects, cleared tool results: ~0.6% of real pairs jump by more
 * than 5,000 tokens) and by small pairs where the fixed overhead dominates. So the overhead is
 * taken out first, each pair's ratio is clipped to a band around the model's prior, pairs are
 * weighted by their size (a 10,000-token file read says more than a 30-token `ls`), old pairs fade,
 * a pair with an unexplained jump is not learned from at all, and small pairs teach the overhead
 * instead of the factor. Pure state, no I/O: the monitor feeds it, `debussy replay` measures it.
 */
import { priorFor, type ModelPrior } from './model-priors.js';

export interface GrowthSample {
  /** cl100k tokens of what entered besides the model's own output. */
  countedTokens: number;
  /** The model's own output in its own tokens (0 when it is part of countedTokens instead). */
  outputTokens: number;
  /** API round trips between the two reports (1 for consecutive ones). */
  calls: number;
  /** Reported context of the later request minus that of the earlier one. */
  growth: number;
}

export type LearnVerdict = 'factor' | 'overhead' | 'jump' | 'shrink';

/** Growth beyond the projection that no estimator sees: such a pair teaches nothing. */
export const UNSEEN_JUMP_TOKENS = 5_000;
/** Below this many counted tokens a pair is mostly overhead: it teaches the overhead. */
export const MIN_FACTOR_SAMPLE_TOKENS = 150;
/** Each pair's ratio stays within prior / CLIP .. prior x CLIP. */
export const RATIO_CLIP = 1.6;
/** The prior counts as this many cl100k tokens of evidence. */
const PRIOR_WEIGHT_TOKENS = 1_500;
/** Evidence fades by this much per factor sample, so the factor follows the kind of content. */
const FACTOR_DECAY = 0.85;
/** The overhead prior counts as this many small pairs; each new one fades the others. */
const PRIOR_OVERHEAD_PAIRS = 3;
const OVERHEAD_DECAY = 0.9;
const OVERHEAD_CLIP = 2;

interface ModelState {
  prior: ModelPrior;
  weight: number;
  weightedFactor: number;
  overheadWeight: number;
  weightedOverhead: number;
}

export class TokenCalibration {
  private readonly models = new Map<string, ModelState>();

  factorFor(model: string | undefined): number {
    const state = this.stateOf(model);
    return state.weightedFactor / state.weight;
  }

  overheadFor(model: string | undefined): number {
    const state = this.stateOf(model);
    return state.weightedOverhead / state.overheadWeight;
  }

  priorOf(model: string | undefined): ModelPrior {
    return this.stateOf(model).prior;
  }

  /** Learns from one pair of consecutive reports of `model`; says what it did with it. */
  learn(model: string | undefined, sample: GrowthSample): LearnVerdict {
    const state = this.stateOf(model);
    const factor = state.weightedFactor / state.weight;
    const overhead = state.weightedOverhead / state.overheadWeight;
    const calls = Math.max(1, sample.calls);
    const content = sample.growth - sample.outputTokens - calls * overhead;
    if (sample.growth < 0) return 'shrink';
    if (content - factor * sample.countedTokens > UNSEEN_JUMP_TOKENS) return 'jump';
    if (sample.countedTokens < MIN_FACTOR_SAMPLE_TOKENS) {
      const perCall = (sample.growth - sample.outputTokens - factor * sample.countedTokens) / calls;
      const clipped = clamp(perCall, 0, state.prior.overheadPerCall * OVERHEAD_CLIP);
      state.overheadWeight = state.overheadWeight * OVERHEAD_DECAY + 1;
      state.weightedOverhead = state.weightedOverhead * OVERHEAD_DECAY + clipped;
      return 'overhead';
    }
    const ratio = clamp(content / sample.countedTokens, state.prior.factor / RATIO_CLIP, state.prior.factor * RATIO_CLIP);
    state.weight = state.weight * FACTOR_DECAY + sample.countedTokens;
    state.weightedFactor = state.weightedFactor * FACTOR_DECAY + ratio * sample.countedTokens;
    // The prior never fades below its own weight: one odd pair cannot carry the factor away.
    if (state.weight < PRIOR_WEIGHT_TOKENS) {
      state.weightedFactor += (PRIOR_WEIGHT_TOKENS - state.weight) * state.prior.factor;
      state.weight = PRIOR_WEIGHT_TOKENS;
    }
    return 'factor';
  }

  private stateOf(model: string | undefined): ModelState {
    const key = model ?? '';
    let state = this.models.get(key);
    if (state === undefined) {
      const prior = priorFor(model);
      state = {
        prior,
        weight: PRIOR_WEIGHT_TOKENS,
        weightedFactor: PRIOR_WEIGHT_TOKENS * prior.factor,
        overheadWeight: PRIOR_OVERHEAD_PAIRS,
        weightedOverhead: PRIOR_OVERHEAD_PAIRS * prior.overheadPerCall,
      };
      this.models.set(key, state);
    }
    return state;
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
