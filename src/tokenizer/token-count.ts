/**
 * Token counting over js-tiktoken's cl100k_base vocabulary. Not Anthropic's tokenizer, but close
 * enough to project the next request from what the API last reported, and reproducible in tests.
 *
 * Why not `Tiktoken.encode()`: its vocabulary is a Map of 100,000 strings (~50 MB of heap, ~300 ms
 * to build) and its merge joins byte arrays into string keys at every step: 1.2-1.6 MB/s of code
 * here, against ~45 MB/s for this one, and bench figure 1 misses with it (docs/decisions.md).
 * This counter uses the same vocabulary (packed: vocabulary.ts), the same pre-tokenizer
 * (pre-tokenizer.ts) and the same merge (byte-pair.ts), with a memo of piece counts
 * (piece-memo.ts); an ordinary piece allocates nothing. The tests check it against
 * `Tiktoken.encode()`.
 */
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { countMergedTokens } from './byte-pair.js';
import { MEMO_MAX_BYTES, PieceMemo } from './piece-memo.js';
import { PreTokenizer } from './pre-tokenizer.js';
import { loadVocabulary, NOT_A_TOKEN, type Vocabulary } from './vocabulary.js';

interface Tokenizer {
  splitter: PreTokenizer;
  vocab: Vocabulary;
  memo: PieceMemo;
}

// Built on first use, once per process (~30 ms of decoding js-tiktoken's ranks): ~3.3 MB of typed arrays.
let tokenizer: Tokenizer | undefined;

// A piece's UTF-8 bytes are written here. A piece too long for it gets a buffer of its own that is
// not kept: a 1 MB run of letters must not leave a 3 MB buffer behind.
const scratch = new Uint8Array(4096);

/**
 * Writes text[start, end) as UTF-8 to `out` and returns the number of bytes. A lone surrogate
 * becomes U+FFFD, as in TextEncoder (which js-tiktoken uses).
 */
function encodeUtf8(text: string, start: number, end: number, out: Uint8Array): number {
  let w = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      out[w++] = c;
    } else if (c < 0x800) {
      out[w++] = 0xc0 | (c >> 6);
      out[w++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c < 0xe000) {
      const low = i + 1 < end ? text.charCodeAt(i + 1) : 0;
      if (c < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        out[w++] = 0xf0 | (point >> 18);
        out[w++] = 0x80 | ((point >> 12) & 0x3f);
        out[w++] = 0x80 | ((point >> 6) & 0x3f);
        out[w++] = 0x80 | (point & 0x3f);
        i++;
      } else {
        out[w++] = 0xef;
        out[w++] = 0xbf;
        out[w++] = 0xbd;
      }
    } else {
      out[w++] = 0xe0 | (c >> 12);
      out[w++] = 0x80 | ((c >> 6) & 0x3f);
      out[w++] = 0x80 | (c & 0x3f);
    }
  }
  return w;
}

/** Number of tokens in the piece text[start, end). */
function countPiece(text: string, start: number, end: number, { vocab, memo }: Tokenizer): number {
  const chars = end - start;
  // Every byte is a token: an ASCII char alone (a space, a bracket) is one.
  if (chars === 1 && text.charCodeAt(start) < 0x80) return 1;
  const bytes = chars * 3 <= scratch.length ? scratch : new Uint8Array(chars * 3);
  const length = encodeUtf8(text, start, end, bytes);
  // As in tiktoken, a piece that is a token is that token, whatever the merge would make of it.
  if (vocab.rankOf(bytes, 0, length) !== NOT_A_TOKEN) return 1;
  if (length > MEMO_MAX_BYTES) return countMergedTokens(bytes, length, vocab);
  let n = memo.get(bytes, length);
  if (n === -1) {
    n = countMergedTokens(bytes, length, vocab);
    memo.set(bytes, length, n);
  }
  return n;
}

/** The cl100k_base token count of `text` (special-token markers are counted as plain text). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  tokenizer ??= {
    splitter: new PreTokenizer(),
    vocab: loadVocabulary(cl100kBase.bpe_ranks),
    memo: new PieceMemo(),
  };
  let total = 0;
  for (let start = 0; start < text.length; ) {
    const end = tokenizer.splitter.pieceEnd(text, start);
    total += countPiece(text, start, end, tokenizer);
    start = end;
  }
  return total;
}

const SAMPLE_ABOVE_CHARS = 262_144;
const SAMPLE_CHARS = 16_384;

/**
 * Like countTokens, but a very long text is measured from three samples (start, middle, end) and
 * extrapolated by length: bounded cost per text, a few percent of error on the part sampled.
 */
export function estimateTokens(text: string): number {
  if (text.length <= SAMPLE_ABOVE_CHARS) return countTokens(text);
  const middle = Math.floor(text.length / 2 - SAMPLE_CHARS / 2);
  const samples = [text.slice(0, SAMPLE_CHARS), text.slice(middle, middle + SAMPLE_CHARS), text.slice(-SAMPLE_CHARS)];
  let sampleTokens = 0;
  let sampleChars = 0;
  for (const sample of samples) {
    sampleTokens += countTokens(sample);
    sampleChars += sample.length;
  }
  return Math.round((text.length * sampleTokens) / sampleChars);
}

/** Each sample of sampledTokenCount covers about this many characters. */
const SAMPLE_WINDOW_CHARS = 64;

/**
 * The cl100k count of `text` estimated from about `sampleChars` characters of it: evenly spaced
 * windows of ~64 characters, each starting and ending at whitespace (where a piece of the
 * pre-tokenizer begins) so a cut adds no token, scaled by UTF-8 bytes to the whole text. Exact
 * when the text is no longer than `sampleChars`. Returns the tokens and the bytes sampled, so a
 * caller can learn the text's tokens per byte from them. `bytes`: the text's UTF-8 length, if known.
 */
export function sampledTokenCount(text: string, sampleChars: number, bytes = Buffer.byteLength(text, 'utf8')): { tokens: number; sampledTokens: number; sampledBytes: number } {
  if (text.length <= sampleChars) {
    const tokens = countTokens(text);
    return { tokens, sampledTokens: tokens, sampledBytes: bytes };
  }
  const windows = Math.max(1, Math.round(sampleChars / SAMPLE_WINDOW_CHARS));
  const stride = text.length / windows;
  let sampledTokens = 0;
  let sampledBytes = 0;
  for (let i = 0; i < windows; i++) {
    const start = nextWhitespace(text, Math.floor(i * stride + (stride - SAMPLE_WINDOW_CHARS) / 2));
    const end = nextWhitespace(text, start + SAMPLE_WINDOW_CHARS);
    if (end <= start) continue;
    const sample = text.slice(start, end);
    sampledTokens += countTokens(sample);
    sampledBytes += Buffer.byteLength(sample, 'utf8');
  }
  if (sampledBytes === 0) return { tokens: countTokens(text), sampledTokens: 0, sampledBytes: 0 };
  return { tokens: Math.round((bytes * sampledTokens) / sampledBytes), sampledTokens, sampledBytes };
}

/** The first space or newline at or after `from` (within a window's length), else `from`. */
function nextWhitespace(text: string, from: number): number {
  const start = Math.max(0, Math.min(from, text.length));
  const limit = Math.min(text.length, start + SAMPLE_WINDOW_CHARS);
  for (let i = start; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a) return i;
  }
  return start;
}
