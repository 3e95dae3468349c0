/**
 * A calibration that never learns: the model's prior, or a given factor and per-call overhead.
 * For the benchmarks that hold debussy's learning against a fixed count (bench/context-replay.ts,
 * figure 3's best fixed factor in hindsight).
 */
import { TokenCalibration, type GrowthSample, type LearnVerdict } from '../../src/context/index.js';

export class FixedCalibration extends TokenCalibration {
  constructor(private readonly fixed?: { factor: number; overheadPerCall: number }) {
    super();
  }

  override factorFor(model: string | undefined): number {
    return this.fixed?.factor ?? this.priorOf(model).factor;
  }

  override overheadFor(model: string | undefined): number {
    return this.fixed?.overheadPerCall ?? this.priorOf(model).overheadPerCall;
  }

  /** Never learns: every pair is treated like one that teaches nothing. */
  override learn(_model: string | undefined, _sample: GrowthSample): LearnVerdict {
    return 'shrink';
  }
}
