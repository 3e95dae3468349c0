/**
 * The raw session log's redaction of streamed pieces. With --include-partial-messages, claude
 * prints a content block (the model's text, a tool's input, its thinking) as many small
 * `content_block_delta` lines, a few tokens each: redacting each line alone leaves a secret that
 * spans several of them whole once the pieces are joined again. So the delta lines of a block are
 * held until the block is complete (its `assistant` line, its `content_block_stop`, or any other
 * line of the same agent), the block's text is redacted whole, and the redacted text is spread back
 * over the same lines: joined again, the pieces give exactly the redacted block. Lines that come
 * while a block is held wait behind it, so the log keeps the stream's order. A session that ends
 * mid-block has what was held redacted as it stands (`drain`).
 */
import type { Redactor } from '../../redact/index.js';

/** A line ready for the raw log: its redacted text, or the bytes it came as when redaction left it unchanged. */
export type ReadyLine = string | Buffer;

interface DeltaRecord {
  type: 'stream_event';
  parent_tool_use_id?: string | null;
  event: { type: 'content_block_delta'; index?: number; delta: Record<string, unknown> };
}

interface HeldDelta {
  kind: 'delta';
  key: string;
  record: DeltaRecord;
  /** The delta field that holds the piece: `text`, `partial_json` or `thinking`. */
  field: string;
  piece: string;
  bytes: Buffer | undefined;
  line: string;
  /** Set when the block is complete: the line as it is to be written. */
  ready?: ReadyLine;
}

interface HeldLine {
  kind: 'line';
  ready: ReadyLine;
}

/** Delta fields that carry streamed text; `signature_delta` carries none worth hiding. */
const PIECE_FIELDS = ['text', 'partial_json', 'thinking'] as const;
/** Delta lines are small; a long line is never one, and is not searched for the marker. */
const MAX_DELTA_LINE = 64 * 1024;

/**
 * `text` spread over pieces of the given lengths, in order: each piece as long as the original
 * one while text remains, the last taking the rest. Joined, the pieces are `text`. Pure.
 */
export function spreadOver(lengths: readonly number[], text: string): string[] {
  const pieces: string[] = [];
  let at = 0;
  lengths.forEach((length, index) => {
    const end = index === lengths.length - 1 ? text.length : Math.min(text.length, at + length);
    pieces.push(text.slice(at, end));
    at = end;
  });
  return pieces;
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parentOf(record: Record<string, unknown>): string {
  return typeof record.parent_tool_use_id === 'string' ? record.parent_tool_use_id : '';
}

/** The line as a held delta, when it is a `content_block_delta` carrying a text piece. */
function asDelta(line: string, bytes: Buffer | undefined): HeldDelta | undefined {
  if (line.length > MAX_DELTA_LINE || !line.includes('"content_block_delta"')) return undefined;
  const record = parseRecord(line);
  const event = record?.event as Record<string, unknown> | undefined;
  if (record?.type !== 'stream_event' || typeof event !== 'object' || event === null || event.type !== 'content_block_delta') return undefined;
  const delta = event.delta;
  if (typeof delta !== 'object' || delta === null) return undefined;
  const fields = delta as Record<string, unknown>;
  const field = PIECE_FIELDS.find((name) => typeof fields[name] === 'string');
  if (field === undefined) return undefined;
  const index = typeof event.index === 'number' ? event.index : -1;
  return { kind: 'delta', key: `${parentOf(record)}#${index}`, record: record as unknown as DeltaRecord, field, piece: fields[field] as string, bytes, line };
}

function isBlockStart(line: string): boolean {
  return line.length <= MAX_DELTA_LINE && line.includes('"content_block_start"');
}

export class StreamedBlocks {
  /** Lines waiting behind a block still streaming, in the stream's order. */
  private held: (HeldDelta | HeldLine)[] = [];
  /** The pieces of each block still streaming, by agent and block index. */
  private readonly open = new Map<string, HeldDelta[]>();

  constructor(private readonly redact: Redactor) {}

  /** What may be written now that `line` came (the raw log's lines, in order). */
  accept(line: string, bytes?: Buffer): ReadyLine[] {
    const delta = asDelta(line, bytes);
    if (delta !== undefined) {
      const pieces = this.open.get(delta.key);
      if (pieces === undefined) this.open.set(delta.key, [delta]);
      else pieces.push(delta);
      this.held.push(delta);
      return [];
    }
    if (this.held.length === 0) return [this.lineAlone(line, bytes)];
    if (!isBlockStart(line)) {
      // Any other line of the same agent means its blocks are complete.
      const parent = parentOf(parseRecord(line) ?? {});
      for (const key of [...this.open.keys()]) if (key.startsWith(`${parent}#`)) this.complete(key);
    }
    this.held.push({ kind: 'line', ready: this.lineAlone(line, bytes) });
    return this.release();
  }

  /** Everything still held, each open block redacted as it stands: the session has ended. */
  drain(): ReadyLine[] {
    for (const key of [...this.open.keys()]) this.complete(key);
    return this.release();
  }

  private lineAlone(line: string, bytes: Buffer | undefined): ReadyLine {
    const redacted = this.redact(line);
    return redacted === line && bytes !== undefined ? bytes : redacted;
  }

  /** Redacts a block's pieces as one text and spreads the result back over its lines. */
  private complete(key: string): void {
    const pieces = this.open.get(key) ?? [];
    this.open.delete(key);
    const joined = pieces.map((held) => held.piece).join('');
    const redacted = this.redact(joined);
    if (redacted === joined) {
      for (const held of pieces) held.ready = held.bytes ?? held.line;
      return;
    }
    const spread = spreadOver(
      pieces.map((held) => held.piece.length),
      redacted,
    );
    pieces.forEach((held, index) => {
      held.record.event.delta[held.field] = spread[index] ?? '';
      held.ready = JSON.stringify(held.record);
    });
  }

  /** The lines at the head that no open block holds back. */
  private release(): ReadyLine[] {
    let count = 0;
    while (count < this.held.length) {
      const head = this.held[count];
      if (head === undefined || head.ready === undefined) break;
      count += 1;
    }
    const out = this.held.slice(0, count).map((held) => held.ready as ReadyLine);
    this.held = this.held.slice(count);
    return out;
  }
}
