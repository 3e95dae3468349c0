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

  /** The count with bounded work: exact up to EXACT_BYTES_PER_PAIR of new text, estimated beyond. */
  estimate(rate: TokenRate): number {
    let budget = EXACT_BYTES_PER_PAIR;
    const rest: PendingText[] = [];
    for (const pending of this.texts) {
      if (pending.bytes > budget) {
        rest.push(pending);
        continue;
      }
      const tokens = countTokens(pending.text);
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
