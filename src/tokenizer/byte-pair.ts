/**
 * The byte-pair merge of one pre-tokenized piece, counting the tokens it ends with. Same rule as
 * tiktoken: repeatedly merge the adjacent pair of parts whose joined bytes have the lowest rank
 * (the leftmost such pair on a tie) until no pair is a token. The merge of a short piece (nearly
 * all of them) works on typed arrays reused from call to call: it allocates nothing.
 */
import { NOT_A_TOKEN, type Vocabulary } from './vocabulary.js';

// Up to this many bytes, a piece is merged by rescanning its pair ranks after each merge: quadratic,
// but the fastest for the short pieces that nearly all text is made of. A longer piece (a run of
// letters in minified code or base64) goes through a heap instead, so it costs n log n, exactly.
const SCAN_MAX_BYTES = 64;

const scanStarts = new Int32Array(SCAN_MAX_BYTES + 1);
const scanRanks = new Int32Array(SCAN_MAX_BYTES);

/**
 * Number of tokens the merge makes of `bytes[0, length)`, starting from single bytes (all tokens).
 * The caller has checked, as tiktoken does first, whether the whole piece is a token.
 */
export function countMergedTokens(bytes: Uint8Array, length: number, vocab: Vocabulary): number {
  if (length <= 1) return length;
  return length <= SCAN_MAX_BYTES ? mergeByScan(bytes, length, vocab) : mergeByHeap(bytes, length, vocab);
}

function mergeByScan(bytes: Uint8Array, length: number, vocab: Vocabulary): number {
  // Part i is bytes[starts[i], starts[i + 1]); ranks[i] is the rank of parts i and i + 1 joined.
  const starts = scanStarts;
  const ranks = scanRanks;
  for (let i = 0; i <= length; i++) starts[i] = i;
  for (let i = 0; i < length - 1; i++) ranks[i] = vocab.rankOf(bytes, i, i + 2);
  let parts = length;
  for (;;) {
    let best = NOT_A_TOKEN;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (ranks[i]! < best) {
        best = ranks[i]!;
        at = i;
      }
    }
    if (at === -1) return parts;
    // Parts at and at + 1 become one: drop the boundary between them and the pair rank that spanned it.
    for (let i = at + 1; i < parts; i++) starts[i] = starts[i + 1]!;
    for (let i = at + 1; i < parts - 2; i++) ranks[i] = ranks[i + 1]!;
    parts--;
    if (at < parts - 1) ranks[at] = vocab.rankOf(bytes, starts[at]!, starts[at + 2]!);
    if (at > 0) ranks[at - 1] = vocab.rankOf(bytes, starts[at - 1]!, starts[at + 1]!);
  }
}

// Heap keys are rank * 2^32 + (where the pair's left part starts): the smallest key is the lowest
// rank, leftmost on a tie. Exact in a double, as ranks stay far below 2^21.
const POSITION_SPAN = 2 ** 32;
const DEAD = -1;

/**
 * The same merge with the parts in a linked list (indexed by where each part starts) and the pair
 * ranks in a binary min-heap. A merge changes the rank of at most two pairs; their old heap entries
 * stay behind and are recognized as stale when popped, as their rank no longer matches.
 */
function mergeByHeap(bytes: Uint8Array, length: number, vocab: Vocabulary): number {
  // next[s]: where the part after the one starting at s starts (length for the last part).
  // pairRank[s]: the rank of the part at s joined with the next one; DEAD once the part at s is merged away.
  const next = new Int32Array(length);
  const prev = new Int32Array(length);
  const pairRank = new Int32Array(length);
  const heap = new MinHeap(length);
  const rankPair = (s: number): void => {
    const right = next[s]!;
    const rank = right < length ? vocab.rankOf(bytes, s, next[right]!) : NOT_A_TOKEN;
    pairRank[s] = rank;
    if (rank !== NOT_A_TOKEN) heap.push(rank * POSITION_SPAN + s);
  };
  for (let s = 0; s < length; s++) {
    next[s] = s + 1;
    prev[s] = s - 1;
  }
  for (let s = 0; s < length; s++) rankPair(s);
  let parts = length;
  while (heap.size > 0) {
    const key = heap.pop();
    const rank = Math.floor(key / POSITION_SPAN);
    const s = key - rank * POSITION_SPAN;
    if (pairRank[s] !== rank) continue;
    const absorbed = next[s]!;
    const after = next[absorbed]!;
    next[s] = after;
    if (after < length) prev[after] = s;
    pairRank[absorbed] = DEAD;
    parts--;
    rankPair(s);
    if (prev[s]! >= 0) rankPair(prev[s]!);
  }
  return parts;
}

/** A binary min-heap of numbers. */
class MinHeap {
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(capacity, 16));
  }

  push(key: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const keys = this.keys;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      i = parent;
    }
    keys[i] = key;
  }

  pop(): number {
    const keys = this.keys;
    const top = keys[0]!;
    const last = keys[--this.size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= last) break;
      keys[i] = keys[child]!;
      i = child;
    }
    keys[i] = last;
    return top;
  }
}
