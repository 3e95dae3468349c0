/**
 * What entered the context since the last usage report, of one kind (a tool's name for its
 * results, 'text', 'output'), and its cl100k count. Three ways to count, from cheap to exact:
 *
 * - `bound()`: the UTF-8 bytes, an upper bound (a token never covers less than a byte); no
 *   tokenizing.
 * - `estimate(rate)`: what a pair of reports teaches the calibration. Whole texts are counted
 *   exactly, in the order they came, while they fit in EXACT_BYTES_PER_PAIR; a text that does not
 *   fit is counted from evenly spaced samples if it is large, else by the kind's measured tokens
 *   per byte. Bounded work per pair, whatever a replayed or a huge stream holds.
 * - `count()`: everything counted exactly (a very long single text from samples, estimateTokens);
 *   for the display and for a check that the byte bound says could cross the limit.
 *
 * `estimate` is bounded per pair; a CountingBudget bounds it per stream: pairs that come faster
 * than the display counts them (a replayed or a bursting stream) are learned from only while the
 * tokenizing they needed stays within a share of what entered.
 */
import { estimateTokens, countTokens, sampledTokenCount } from '../tokenizer/index.js';

/** Bytes of one kind counted exactly per pair of reports (whole texts, first come first). */
export const EXACT_BYTES_PER_PAIR = 512;
/** A text over this many bytes that does not fit is counted from samples... */
export const SAMPLE_ABOVE_BYTES = 8_192;
/**
 * ...of 1/SAMPLE_FRACTION of its characters (1/LARGE_SAMPLE_FRACTION over LARGE_TEXT_CHARS, rare and
 * where a small error is many tokens), at least MIN_SAMPLE_CHARS and at most MAX_SAMPLE_CHARS.
 */
const SAMPLE_FRACTION = 64;
const LARGE_TEXT_CHARS = 262_144;
const LARGE_SAMPLE_FRACTION = 32;
const MIN_SAMPLE_CHARS = 512;
const MAX_SAMPLE_CHARS = 32_768;
/** Tokens per byte before a kind has been measured: cl100k on code and prose is ~3.8 bytes a token. */
export const PRIOR_BYTES_PER_TOKEN = 3.8;
/** A kind's measured rate counts this many bytes of the prior in. */
const PRIOR_RATE_BYTES = 256;

/** How many characters of a text of `chars` characters are counted when it is sampled. */
export function sampleCharsFor(chars: number): number {
  const fraction = chars > LARGE_TEXT_CHARS ? LARGE_SAMPLE_FRACTION : SAMPLE_FRACTION;
  return Math.min(MAX_SAMPLE_CHARS, Math.max(MIN_SAMPLE_CHARS, Math.round(chars / fraction)));
}

/** A kind's tokens per byte, measured from what was counted exactly or sampled. */
export class TokenRate {
  private tokens = PRIOR_RATE_BYTES / PRIOR_BYTES_PER_TOKEN;
  private bytes = PRIOR_RATE_BYTES;

  measured(tokens: number, bytes: number): void {
    this.tokens += tokens;
    this.bytes += bytes;
  }

  tokensFor(bytes: number): number {
    return (bytes * this.tokens) / this.bytes;
  }
}

/** Tokenizing (bytes counted or sampled) each pair of reports earns for the calibration, besides... */
export const CREDIT_PER_PAIR_BYTES = 64;
/** ...1 byte for every CREDIT_SHARE bytes that entered uncounted. */
export const CREDIT_SHARE = 128;
/** The credit a stream starts with and never exceeds: the first pairs of a burst are counted. */
export const MAX_CREDIT_BYTES = 16_384;

/**
 * How much tokenizing the calibration may spend on the pairs the display did not count first. Each
 * pair earns CREDIT_PER_PAIR_BYTES plus 1/CREDIT_SHARE of its uncounted bytes; a pair is counted
 * and learned from while the credit is positive, and what its count tokenized is spent (the
 * credit may go below zero: the next pairs are then skipped until it is earned back). A pair
 * counted before its report (the display, `debussy replay`, figure 3) costs nothing, so a session
 * at a person's pace, or a replay, learns from every pair. Deterministic: no clock.
 */
export class CountingBudget {
  private credit = MAX_CREDIT_BYTES;

  /** A pair with `uncountedBytes` waiting: may it be counted? */
  allows(uncountedBytes: number): boolean {
    this.credit = Math.min(MAX_CREDIT_BYTES, this.credit + CREDIT_PER_PAIR_BYTES + uncountedBytes / CREDIT_SHARE);
    return this.credit > 0;
  }

  spend(bytes: number): void {
    this.credit -= bytes;
  }
}

interface PendingText {
  text: string;
  bytes: number;
}

export class PendingCount {
  /** Tokens of the texts counted exactly so far (they are not counted again). */
  private counted = 0;
  private texts: PendingText[] = [];
  private bytes = 0;

  add(text: string): void {
    if (text === '') return;
    const bytes = Buffer.byteLength(text, 'utf8');
    this.texts.push({ text, bytes });
    this.bytes += bytes;
  }

  /** Bytes of the texts not counted yet. */
  get uncountedBytes(): number {
    return this.bytes;
  }

  /** An upper bound of the cl100k count without tokenizing. */
  bound(): number {
    return this.counted + this.bytes;
  }

  count(): number {
    for (const { text } of this.texts) this.counted += estimateTokens(text);
    this.texts = [];
    this.bytes = 0;
    return this.counted;
  }

  /**
   * The count with bounded work: exact up to EXACT_BYTES_PER_PAIR of new text, estimated beyond.
   * What it tokenizes is spent from `work`, if given.
   */
  estimate(rate: TokenRate, work?: CountingBudget): number {
    let budget = EXACT_BYTES_PER_PAIR;
    const rest: PendingText[] = [];
    for (const pending of this.texts) {
      if (pending.bytes > budget) {
        rest.push(pending);
        continue;
      }
      const tokens = countTokens(pending.text);
      work?.spend(pending.bytes);
      rate.measured(tokens, pending.bytes);
      this.counted += tokens;
      this.bytes -= pending.bytes;
      budget -= pending.bytes;
    }
    this.texts = rest;
    let estimated = 0;
    for (const { text, bytes } of rest) {
      if (bytes <= SAMPLE_ABOVE_BYTES) {
        estimated += rate.tokensFor(bytes);
        continue;
      }
      const sampled = sampledTokenCount(text, sampleCharsFor(text.length), bytes);
      work?.spend(sampled.sampledBytes);
      rate.measured(sampled.sampledTokens, sampled.sampledBytes);
      estimated += sampled.tokens;
    }
    return this.counted + Math.round(estimated);
  }

  clear(): void {
    this.counted = 0;
    this.texts = [];
    this.bytes = 0;
  }
}
