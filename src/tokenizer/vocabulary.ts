/**
 * A byte-pair vocabulary (token bytes -> rank) kept in a few typed arrays instead of a Map of
 * strings: js-tiktoken's cl100k_base has 100,256 tokens, and a Map of latin1 strings kept ~6 MB of
 * heap, raised RSS by ~27 MB (the garbage of splitting the ranks text and decoding each token) and
 * took 120-200 ms to build. Here the token bytes sit end to end in one Uint8Array and an
 * open-addressing hash table maps them to token numbers: ~2.7 MB in all, built in one pass over
 * the ranks text in ~30 ms, and looked up by (bytes, start, end), so that the merge loop never
 * allocates a key.
 */

/** Returned by `rankOf` for bytes that are not a token. Above every rank, so `<` comparisons work. */
export const NOT_A_TOKEN = 0x7fffffff;

// A table slot holds 0 (empty) or (tag << INDEX_BITS) | (token number + 1). The tag is the hash's
// bits above those of the slot number, as many as fit beside the token number: nearly every probe
// of a slot holding another token is rejected without reading that token's bytes.
const INDEX_BITS = 18;
const INDEX_MASK = (1 << INDEX_BITS) - 1;
const TAG_MASK = (1 << (32 - INDEX_BITS)) - 1;

export interface Vocabulary {
  /** The rank of the token made of `bytes[start, end)`, or NOT_A_TOKEN. */
  rankOf(bytes: Uint8Array, start: number, end: number): number;
}

// FNV-1a, a byte at a time, then a final mix so that the low bits (the slot) depend on every byte.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function finishHash(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  // Kept a signed 32-bit integer: V8 would hold an unsigned one above 2^31 as a double.
  return h ^ (h >>> 12);
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return finishHash(h);
}

/** The tokens' bytes end to end, where each begins, their ranks and their (unfinished) hashes. */
interface DecodedRanks {
  bytes: Uint8Array;
  /** Token i is bytes[starts[i], starts[i + 1]). */
  starts: Uint32Array;
  /** The rank of token i; null when it is i (as in cl100k_base: one line, from rank 0). */
  ranks: Int32Array | null;
  hashes: Int32Array;
  /** The longest token, in bytes. */
  longest: number;
}

/** Everything a PackedVocabulary looks tokens up in. */
interface PackedTables {
  bytes: Uint8Array;
  starts: Uint32Array;
  ranks: Int32Array | null;
  table: Int32Array;
  pairRanks: Int32Array;
  maxTokenBytes: number;
  slotBits: number;
}

class PackedVocabulary implements Vocabulary {
  /** The longest token, in bytes: a longer span is not looked up. */
  private readonly maxTokenBytes: number;
  private readonly bytes: Uint8Array;
  private readonly starts: Uint32Array;
  private readonly ranks: Int32Array | null;
  private readonly table: Int32Array;
  /**
   * The rank of each two-byte token by its bytes (b0 << 8 | b1), NOT_A_TOKEN for the other pairs:
   * a merge first looks up every pair of adjacent bytes in its piece, and this is one array read.
   */
  private readonly pairRanks: Int32Array;
  private readonly slotBits: number;
  private readonly slotMask: number;
  private readonly tagShift: number;

  constructor(tables: PackedTables) {
    this.bytes = tables.bytes;
    this.starts = tables.starts;
    this.ranks = tables.ranks;
    this.table = tables.table;
    this.pairRanks = tables.pairRanks;
    this.maxTokenBytes = tables.maxTokenBytes;
    this.slotBits = tables.slotBits;
    this.slotMask = (1 << tables.slotBits) - 1;
    this.tagShift = tables.slotBits;
  }

  /** The vocabulary of decoded ranks: its tables are filled here. */
  static fromRanks(decoded: DecodedRanks): PackedVocabulary {
    const count = decoded.hashes.length;
    if (count >= INDEX_MASK) throw new Error(`vocabulary: ${count} tokens do not fit the hash table's slots`);
    // At most ~40% full: a miss (most pair lookups in a merge) then ends after a probe or two.
    const slotBits = Math.max(10, Math.ceil(Math.log2(count * 2.5)));
    const vocabulary = new PackedVocabulary({
      bytes: decoded.bytes, starts: decoded.starts, ranks: decoded.ranks, maxTokenBytes: decoded.longest, slotBits,
      table: new Int32Array(1 << slotBits), pairRanks: new Int32Array(1 << 16).fill(NOT_A_TOKEN),
    });
    vocabulary.fillTable(decoded.hashes);
    return vocabulary;
  }

  /** Puts every token in the tables. Should a token come twice, the later one wins, as in a Map. */
  private fillTable(hashes: Int32Array): void {
    const { table, slotMask, tagShift, starts, bytes } = this;
    for (let token = 0; token < hashes.length; token++) {
      const start = starts[token]!;
      if (starts[token + 1]! - start === 2) this.pairRanks[(bytes[start]! << 8) | bytes[start + 1]!] = this.rankOfToken(token);
      const hash = finishHash(hashes[token]!);
      const entry = (((hash >>> tagShift) & TAG_MASK) << INDEX_BITS) | (token + 1);
      let slot = hash & slotMask;
      for (let held = table[slot]!; held !== 0; held = table[slot]!) {
        if ((held ^ entry) >>> INDEX_BITS === 0 && this.matches((held & INDEX_MASK) - 1, bytes, start, starts[token + 1]!)) break;
        slot = (slot + 1) & slotMask;
      }
      table[slot] = entry;
    }
  }

  private rankOfToken(token: number): number {
    return this.ranks === null ? token : this.ranks[token]!;
  }

  /** Whether token `token` is exactly `source[start, end)`. */
  private matches(token: number, source: Uint8Array, start: number, end: number): boolean {
    let at = this.starts[token]!;
    if (this.starts[token + 1]! - at !== end - start) return false;
    for (let i = start; i < end; i++, at++) if (this.bytes[at] !== source[i]) return false;
    return true;
  }

  rankOf(source: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length === 2) return this.pairRanks[(source[start]! << 8) | source[start + 1]!]!;
    if (length > this.maxTokenBytes) return NOT_A_TOKEN;
    const hash = hashBytes(source, start, end);
    const tag = (hash >>> this.tagShift) & TAG_MASK;
    for (let slot = hash & this.slotMask; ; slot = (slot + 1) & this.slotMask) {
      const held = this.table[slot]!;
      if (held === 0) return NOT_A_TOKEN;
      if (held >>> INDEX_BITS === tag) {
        const token = (held & INDEX_MASK) - 1;
        if (this.matches(token, source, start, end)) return this.rankOfToken(token);
      }
    }
  }
}

// Base64 digit values by byte; -1 for '=' (padding) and anything else.
const BASE64_VALUES = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) {
  BASE64_VALUES['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

/**
 * Decodes a tiktoken ranks text (js-tiktoken's `bpe_ranks`): lines of a marker, the rank of the
 * line's first token, then space-separated base64 tokens (padded to groups of 4 digits) of
 * consecutive ranks. A single pass over the text's bytes decodes the base64 in place (a token's
 * bytes are never longer than its base64) and hashes each byte as it is written.
 *
 * The old loader's 100,000 `Buffer.from(token, 'base64')` calls and split arrays were most of its
 * time and all of its garbage. What is left runs mostly before V8 has optimized it, so the hot loop
 * (`readTokens`) is a small method of its own: it gets optimized early, and nothing after it in the
 * same function is left without type feedback to deoptimize it.
 */
class RanksReader {
  private at = 0;
  private written = 0;
  private count = 0;
  private longest = 0;
  private readonly starts: Uint32Array;
  private readonly hashes: Int32Array;
  /** Each line's first token and its rank. */
  private readonly lines: Array<{ token: number; rank: number }> = [];

  constructor(private readonly text: Uint8Array) {
    // Upper bound: a token takes at least 5 chars (a space and 4 base64 digits).
    const most = Math.floor(text.length / 5) + 1;
    this.starts = new Uint32Array(most + 1);
    this.hashes = new Int32Array(most);
  }

  read(): DecodedRanks {
    const { text, lines } = this;
    const end = text.length;
    while (this.at < end) {
      // The marker, then the rank of the line's first token, then the tokens.
      let i = this.at;
      while (i < end && text[i] !== SPACE && text[i] !== NEWLINE) i++;
      if (i >= end || text[i] === NEWLINE) {
        this.at = i + 1;
        continue;
      }
      let rank = 0;
      for (i++; i < end && text[i]! >= 0x30 && text[i]! <= 0x39; i++) rank = rank * 10 + (text[i]! - 0x30);
      this.at = i;
      lines.push({ token: this.count, rank });
      this.readTokens();
    }
    const { count, written, longest } = this;
    this.starts[count] = written;
    // Copies to the exact sizes, so that neither the text nor the upper-bound arrays are kept.
    return {
      bytes: text.slice(0, written),
      starts: this.starts.slice(0, count + 1),
      ranks: lines.every((line) => line.rank === line.token) ? null : this.ranksByToken(),
      hashes: this.hashes.subarray(0, count),
      longest,
    };
  }

  /** Decodes the tokens from `at` to the end of the line. */
  private readTokens(): void {
    const { text, starts, hashes } = this;
    const end = text.length;
    let { at: i, written, count, longest } = this;
    while (i < end && text[i] === SPACE) {
      i++;
      starts[count] = written;
      let h = FNV_OFFSET;
      // Each group of 4 digits is 3 bytes, or 1 or 2 when it ends in padding.
      while (i + 3 < end && text[i] !== SPACE && text[i] !== NEWLINE) {
        const third = BASE64_VALUES[text[i + 2]!]!;
        const fourth = BASE64_VALUES[text[i + 3]!]!;
        const group = (BASE64_VALUES[text[i]!]! << 18) | (BASE64_VALUES[text[i + 1]!]! << 12) | ((third & 63) << 6) | (fourth & 63);
        let byte = group >>> 16;
        text[written++] = byte;
        h = Math.imul(h ^ byte, FNV_PRIME);
        if (third >= 0) {
          byte = (group >>> 8) & 0xff;
          text[written++] = byte;
          h = Math.imul(h ^ byte, FNV_PRIME);
        }
        if (fourth >= 0) {
          byte = group & 0xff;
          text[written++] = byte;
          h = Math.imul(h ^ byte, FNV_PRIME);
        }
        i += 4;
      }
      longest = Math.max(longest, written - starts[count]!);
      hashes[count++] = h;
    }
    this.at = i;
    this.written = written;
    this.count = count;
    this.longest = longest;
  }

  /** The rank of each token, when they are not simply 0, 1, 2...: consecutive from each line's first. */
  private ranksByToken(): Int32Array {
    const ranks = new Int32Array(this.count);
    this.lines.forEach((line, n) => {
      const next = this.lines[n + 1]?.token ?? this.count;
      for (let token = line.token; token < next; token++) ranks[token] = line.rank + (token - line.token);
    });
    return ranks;
  }
}

/** Builds the vocabulary of a tiktoken ranks text (js-tiktoken's `bpe_ranks`). */
export function loadVocabulary(bpeRanks: string): Vocabulary {
  // One byte per char (the text is ASCII), and a plain Uint8Array: the reader decodes into it.
  return PackedVocabulary.fromRanks(new RanksReader(new TextEncoder().encode(bpeRanks)).read());
}
