/**
 * A bounded memo of piece counts, keyed by the piece's UTF-8 bytes. The pieces worth it are words
 * and identifiers of several tokens: they repeat endlessly in code and logs, and each costs a
 * merge. (A piece that is one token needs no memo: one vocabulary lookup says so.)
 *
 * Fixed-size typed arrays hold it all (~0.6 MB): no strings, so nothing to allocate per lookup,
 * no slice of a tool output kept alive by a key, and no growth. Two-way set associative: a new
 * piece evicts the less recently used of the two in its set, so the frequent ones stay.
 */
const SETS = 8192;
const WAYS = 2; // way = slot % 2
/** Longer pieces are not memoized: they are rare, and each would take a key slot this long. */
export const MEMO_MAX_BYTES = 32;

function hashOf(bytes: Uint8Array, length: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h ^ (h >>> 15);
}

export class PieceMemo {
  /** Per slot (set * WAYS + way): the full hash, the key's length (0: empty), the count. */
  private readonly hashes = new Int32Array(SETS * WAYS);
  private readonly lengths = new Uint8Array(SETS * WAYS);
  private readonly counts = new Uint8Array(SETS * WAYS);
  /** The key bytes, MEMO_MAX_BYTES per slot. */
  private readonly keys = new Uint8Array(SETS * WAYS * MEMO_MAX_BYTES);
  /** Per set, the way used last. */
  private readonly recent = new Uint8Array(SETS);

  /** The count memoized for bytes[0, length), or -1. */
  get(bytes: Uint8Array, length: number): number {
    const hash = hashOf(bytes, length);
    const set = hash & (SETS - 1);
    for (let way = 0; way < WAYS; way++) {
      const slot = set * WAYS + way;
      if (this.hashes[slot] === hash && this.holds(slot, bytes, length)) {
        this.recent[set] = way;
        return this.counts[slot]!;
      }
    }
    return -1;
  }

  /** Memoizes the count of bytes[0, length), which is at most MEMO_MAX_BYTES long. */
  set(bytes: Uint8Array, length: number, count: number): void {
    const hash = hashOf(bytes, length);
    const set = hash & (SETS - 1);
    const way = this.recent[set] === 0 ? 1 : 0;
    const slot = set * WAYS + way;
    this.hashes[slot] = hash;
    this.lengths[slot] = length;
    this.counts[slot] = count; // at most `length` tokens: fits a byte
    this.keys.set(bytes.subarray(0, length), slot * MEMO_MAX_BYTES);
    this.recent[set] = way;
  }

  private holds(slot: number, bytes: Uint8Array, length: number): boolean {
    if (this.lengths[slot] !== length) return false;
    for (let i = 0, at = slot * MEMO_MAX_BYTES; i < length; i++, at++) if (this.keys[at] !== bytes[i]) return false;
    return true;
  }
}
