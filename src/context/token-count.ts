/**
 * Token counting over js-tiktoken's cl100k_base vocabulary. Not Anthropic's tokenizer, but close
 * enough to project the next request from what the API last reported, and reproducible in tests.
 *
 * Why not `Tiktoken.encode()`: it rebuilds its regexes on every call and its byte-pair merge
 * re-joins byte arrays on every step, which measured 0.1-0.6 MB/s here; a session's tool output
 * would cost seconds of CPU. This counter uses the same vocabulary and pre-tokenizer pattern, a
 * plain byte-pair merge over latin1 byte strings, and a memo of piece counts (identifiers, words
 * and punctuation runs repeat endlessly in code and logs). The tests check it against
 * `Tiktoken.encode()`.
 */
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

interface Vocabulary {
  /** Token bytes (one latin1 char per byte) -> rank. */
  ranks: Map<string, number>;
  splitter: RegExp;
}

// Building the vocabulary takes a few hundred ms: done on first use, once per process.
let vocabulary: Vocabulary | undefined;

function loadVocabulary(): Vocabulary {
  const ranks = new Map<string, number>();
  for (const line of cl100kBase.bpe_ranks.split('\n')) {
    if (line === '') continue;
    // Each line: a marker, the rank of its first token, then base64 tokens of consecutive ranks.
    const [, offsetText, ...tokens] = line.split(' ');
    const offset = Number(offsetText);
    tokens.forEach((token, i) => ranks.set(Buffer.from(token, 'base64').toString('latin1'), offset + i));
  }
  return { ranks, splitter: new RegExp(cl100kBase.pat_str, 'gu') };
}

/** Number of tokens the byte-pair merge makes of one pre-tokenized piece (as latin1 bytes). */
function mergeCount(bytes: string, ranks: Map<string, number>): number {
  if (bytes.length <= 1 || ranks.has(bytes)) return Math.min(bytes.length, 1);
  // starts[i] is where part i begins; starts[parts] === bytes.length. pairRank[i] is the rank of
  // parts i and i+1 merged (Infinity when that is not a token).
  const starts: number[] = [];
  for (let i = 0; i <= bytes.length; i++) starts.push(i);
  const rankAt = (i: number): number => {
    const end = starts[i + 2];
    return end === undefined ? Infinity : (ranks.get(bytes.slice(starts[i], end)) ?? Infinity);
  };
  const pairRank: number[] = [];
  for (let i = 0; i < bytes.length - 1; i++) pairRank.push(rankAt(i));
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < pairRank.length; i++) {
      const rank = pairRank[i] ?? Infinity;
      if (rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    pairRank.splice(at, 1);
    if (at < pairRank.length) pairRank[at] = rankAt(at);
    if (at > 0) pairRank[at - 1] = rankAt(at - 1);
  }
  return starts.length - 1;
}

const pieceCounts = new Map<string, number>();
const MAX_MEMO = 200_000;
// The merge is quadratic in a piece's length; a longer piece (a run of letters in minified code or
// base64) is counted in slices: at most one extra token per cut.
const LONG_PIECE_BYTES = 256;

// Bounded by the characters it holds too: the keys are what stays in memory.
const MAX_MEMO_CHARS = 4_000_000;
let memoChars = 0;

function countPiece(piece: string, vocab: Vocabulary): number {
  const known = pieceCounts.get(piece);
  if (known !== undefined) return known;
  const buffer = Buffer.from(piece, 'utf8');
  const bytes = buffer.toString('latin1');
  let n = 0;
  for (let start = 0; start < bytes.length; start += LONG_PIECE_BYTES) {
    n += mergeCount(bytes.slice(start, start + LONG_PIECE_BYTES), vocab.ranks);
  }
  if (pieceCounts.size >= MAX_MEMO || memoChars + piece.length > MAX_MEMO_CHARS) {
    pieceCounts.clear();
    memoChars = 0;
  }
  // `piece` is a slice of the whole tool output and would keep all of it alive as a key: store a
  // fresh copy instead.
  pieceCounts.set(buffer.toString('utf8'), n);
  memoChars += piece.length;
  return n;
}

/** The cl100k_base token count of `text` (special-token markers are counted as plain text). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  vocabulary ??= loadVocabulary();
  const vocab = vocabulary;
  let total = 0;
  for (const match of text.matchAll(vocab.splitter)) total += countPiece(match[0], vocab);
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
