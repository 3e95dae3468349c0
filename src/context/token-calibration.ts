/**
 * Learns, per model, how Claude's token count grows with what debussy counts in cl100k. Each pair
 * of consecutive reports of one model is a sample: the context grew by `growth`; the model's own
 * output accounts for `outputTokens` (its exact `output_tokens`), one round trip for a fixed
 * overhead, and the rest for `countedTokens` cl100k tokens of tool results and other text.
 *
 * Robust on purpose, because every pair also carries context no estimator sees: reminders the CLI
 * injects, tool framing, cleared tool results. On a small pair those few hundred tokens look like a
 * factor of 1.5-3; learned from, they were multiplied into the next large tool result (held-out
 * public transcripts: a 22,000-token Read projected 21% of the context too high after five small
 * pairs). So a pair teaches the factor only when its content is large enough (FACTOR_SAMPLE_TOKENS)
 * for the unseen part to be small beside it, and then within a narrow band around the model's prior;
 * a smaller pair teaches the per-call overhead instead; a pair with an unexplained jump or a shrink
 * teaches nothing. Pure state, no I/O: the monitor feeds it, `debussy replay` measures it.
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
/** A pair with at least this many counted tokens teaches the factor; a smaller one, the overhead. */
export const FACTOR_SAMPLE_TOKENS = 1_000;
/**
 * Each pair's ratio stays within prior / CLIP .. prior x CLIP. In held-out public transcripts the
 * median ratio of large pairs was within 8% of the prior for every model (4.x 1.11-1.17 against
 * 1.2, Opus 4.7 1.69 and Opus 4.8 1.57 against 1.6); the rest of the band is for a model that
 * tokenizes unlike its prior.
 */
export const RATIO_CLIP = 1.25;
/** The prior counts as this many cl100k tokens of evidence. */
const PRIOR_WEIGHT_TOKENS = 1_500;
/** Evidence fades by this much per factor sample, so the factor follows the content. */
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

  /** How many of the model's tokens one cl100k token of new context is worth. */
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
    const verdict = learnVerdict(sample, content - factor * sample.countedTokens);
    if (verdict === 'overhead') {
      const perCall = (sample.growth - sample.outputTokens - factor * sample.countedTokens) / calls;
      const clipped = clamp(perCall, 0, state.prior.overheadPerCall * OVERHEAD_CLIP);
      state.overheadWeight = state.overheadWeight * OVERHEAD_DECAY + 1;
      state.weightedOverhead = state.weightedOverhead * OVERHEAD_DECAY + clipped;
    } else if (verdict === 'factor') {
      const ratio = clamp(content / sample.countedTokens, state.prior.factor / RATIO_CLIP, state.prior.factor * RATIO_CLIP);
      state.weight = state.weight * FACTOR_DECAY + sample.countedTokens;
      state.weightedFactor = state.weightedFactor * FACTOR_DECAY + ratio * sample.countedTokens;
      // The prior never fades below its own weight: one odd pair cannot carry the factor away.
      if (state.weight < PRIOR_WEIGHT_TOKENS) {
        state.weightedFactor += (PRIOR_WEIGHT_TOKENS - state.weight) * state.prior.factor;
        state.weight = PRIOR_WEIGHT_TOKENS;
      }
    }
    return verdict;
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

/** What a pair can teach, given the growth it left unexplained at the current factor and overhead. */
export function learnVerdict(sample: GrowthSample, unexplained: number): LearnVerdict {
  if (sample.growth < 0) return 'shrink';
  if (unexplained > UNSEEN_JUMP_TOKENS) return 'jump';
  return sample.countedTokens < FACTOR_SAMPLE_TOKENS ? 'overhead' : 'factor';
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
