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
  /** countedTokens by kind of content (a tool's name for its results, 'text', 'output'); optional. */
  kinds?: Readonly<Record<string, number>>;
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
/**
 * Kinds of content tokenize differently (public transcripts: Read ~1.10, Bash ~1.22, Grep/Glob
 * more), so a kind that made up most of a pair learns its own factor, drawn towards the model's
 * by this many tokens of weight until it has more evidence of its own.
 */
const KIND_SHRINK_TOKENS = 1_000;
const KIND_DOMINANCE = 0.9;
const KIND_DECAY = 0.85;
/** The overhead prior counts as this many small pairs; each new one fades the others. */
const PRIOR_OVERHEAD_PAIRS = 3;
const OVERHEAD_DECAY = 0.9;
const OVERHEAD_CLIP = 2;

interface Evidence {
  weight: number;
  weightedFactor: number;
}

interface ModelState extends Evidence {
  prior: ModelPrior;
  overheadWeight: number;
  weightedOverhead: number;
  kinds: Map<string, Evidence>;
}

export class TokenCalibration {
  private readonly models = new Map<string, ModelState>();

  /** The model's factor, or that of one kind of content (a tool's name, 'text', 'output'). */
  factorFor(model: string | undefined, kind?: string): number {
    const state = this.stateOf(model);
    const overall = state.weightedFactor / state.weight;
    const own = kind === undefined ? undefined : state.kinds.get(kind);
    return own === undefined ? overall : (own.weightedFactor + KIND_SHRINK_TOKENS * overall) / (own.weight + KIND_SHRINK_TOKENS);
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
    if (content - this.expectedContent(model, sample, factor) > UNSEEN_JUMP_TOKENS) return 'jump';
    if (sample.countedTokens < MIN_FACTOR_SAMPLE_TOKENS) {
      const perCall = (sample.growth - sample.outputTokens - factor * sample.countedTokens) / calls;
      const clipped = clamp(perCall, 0, state.prior.overheadPerCall * OVERHEAD_CLIP);
      state.overheadWeight = state.overheadWeight * OVERHEAD_DECAY + 1;
      state.weightedOverhead = state.weightedOverhead * OVERHEAD_DECAY + clipped;
      return 'overhead';
    }
    const ratio = clamp(content / sample.countedTokens, state.prior.factor / RATIO_CLIP, state.prior.factor * RATIO_CLIP);
    const dominant = dominantKind(sample);
    if (dominant !== undefined) {
      const own = state.kinds.get(dominant) ?? { weight: 0, weightedFactor: 0 };
      own.weight = own.weight * KIND_DECAY + sample.countedTokens;
      own.weightedFactor = own.weightedFactor * KIND_DECAY + ratio * sample.countedTokens;
      state.kinds.set(dominant, own);
    }
    state.weight = state.weight * FACTOR_DECAY + sample.countedTokens;
    state.weightedFactor = state.weightedFactor * FACTOR_DECAY + ratio * sample.countedTokens;
    // The prior never fades below its own weight: one odd pair cannot carry the factor away.
    if (state.weight < PRIOR_WEIGHT_TOKENS) {
      state.weightedFactor += (PRIOR_WEIGHT_TOKENS - state.weight) * state.prior.factor;
      state.weight = PRIOR_WEIGHT_TOKENS;
    }
    return 'factor';
  }

  private expectedContent(model: string | undefined, sample: GrowthSample, factor: number): number {
    if (sample.kinds === undefined) return factor * sample.countedTokens;
    let expected = 0;
    for (const [kind, tokens] of Object.entries(sample.kinds)) expected += this.factorFor(model, kind) * tokens;
    return expected;
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
        kinds: new Map(),
      };
      this.models.set(key, state);
    }
    return state;
  }
}

/** The kind that makes up at least 90% of a pair's counted tokens, if one does. */
function dominantKind(sample: GrowthSample): string | undefined {
  if (sample.kinds === undefined || sample.countedTokens <= 0) return undefined;
  for (const [kind, tokens] of Object.entries(sample.kinds)) if (tokens >= KIND_DOMINANCE * sample.countedTokens) return kind;
  return undefined;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
