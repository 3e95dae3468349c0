/**
 * Splits a byte stream into lines as it arrives, in batches (one per chunk read), so a caller can
 * handle a whole batch synchronously. A partial line is kept as the chunks it spans and decoded
 * once complete (a newline byte never occurs inside a multi-byte UTF-8 character, so decoding line
 * by line is exact). A line longer than `maxLineBytes` cannot become a string (V8 caps strings at
 * about 512 MB): it is dropped as it arrives, reported to `onSkipped` with its length, and reading
 * goes on with the next line. Memory is bounded by the longest line kept, not by the stream.
 */
import { constants } from 'node:buffer';

export interface LineReaderOptions {
  /** Longer lines are skipped. Default: the longest string this V8 can hold (see maxStreamLineBytes). */
  maxLineBytes?: number;
  /** Told of each skipped line, with its length in bytes, when the line ends. */
  onSkipped?: (bytes: number) => void;
}

/**
 * The longest line decoded: V8's string limit (a line of N bytes decodes to at most N characters),
 * or less when DEBUSSY_MAX_STREAM_LINE_BYTES says so (to exercise the limit without 512 MB lines).
 */
export function maxStreamLineBytes(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env.DEBUSSY_MAX_STREAM_LINE_BYTES);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, constants.MAX_STRING_LENGTH) : constants.MAX_STRING_LENGTH;
}

export async function* readLineBatches(stream: AsyncIterable<Buffer | string>, options: LineReaderOptions = {}): AsyncGenerator<string[]> {
  for await (const batch of readLineBytesBatches(stream, options)) yield batch.lines;
}

/**
 * The lines of a batch, and the bytes each was decoded from (without its newline): a log of the
 * stream as received can write those instead of encoding the text again. `undefined` where they
 * are not the text's (a CR taken off the end).
 */
export interface LineBatch {
  lines: string[];
  bytes: (Buffer | undefined)[];
}

/** readLineBatches, with each line's bytes beside it. */
export async function* readLineBytesBatches(stream: AsyncIterable<Buffer | string>, options: LineReaderOptions = {}): AsyncGenerator<LineBatch> {
  const max = options.maxLineBytes ?? maxStreamLineBytes();
  let partial: Buffer[] = [];
  let partialBytes = 0;
  /** Bytes of an overlong line dropped so far; undefined while the current line is kept. */
  let skipped: number | undefined;
  const keep = (piece: Buffer) => {
    if (skipped !== undefined) {
      skipped += piece.length;
    } else if (partialBytes + piece.length > max) {
      skipped = partialBytes + piece.length;
      partial = [];
      partialBytes = 0;
    } else if (piece.length > 0) {
      partial.push(piece);
      partialBytes += piece.length;
    }
  };
  /** The line that just ended, with its bytes, or undefined when it was skipped. */
  const takeLine = (): [string, Buffer | undefined] | undefined => {
    if (skipped !== undefined) {
      options.onSkipped?.(skipped);
      skipped = undefined;
      return undefined;
    }
    const lineBytes = partial.length === 1 ? (partial[0] as Buffer) : Buffer.concat(partial);
    partial = [];
    partialBytes = 0;
    return decoded(lineBytes, 0, lineBytes.length);
  };
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const batch: LineBatch = { lines: [], bytes: [] };
    const add = (line: [string, Buffer | undefined] | undefined) => {
      if (line === undefined) return;
      batch.lines.push(line[0]);
      batch.bytes.push(line[1]);
    };
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      if (partialBytes === 0 && skipped === undefined && newline - start <= max) {
        add(decoded(bytes, start, newline));
      } else {
        keep(bytes.subarray(start, newline));
        add(takeLine());
      }
      start = newline + 1;
    }
    if (start < bytes.length) keep(bytes.subarray(start));
    if (batch.lines.length > 0) yield batch;
  }
  if (partialBytes > 0 || skipped !== undefined) {
    const line = takeLine();
    if (line !== undefined) yield { lines: [line[0]], bytes: [line[1]] };
  }
}

/** bytes[start, end) as a line without a CR at its end, and its bytes when they are the line's. */
function decoded(bytes: Buffer, start: number, end: number): [string, Buffer | undefined] {
  const text = bytes.toString('utf8', start, end);
  return text.endsWith('\r') ? [text.slice(0, -1), undefined] : [text, bytes.subarray(start, end)];
}

// After the agent exits its stdout should close at once; a grandchild holding the pipe must not hang the session.
const STDOUT_AFTER_EXIT_MS = 2_000;

/** Once the process has exited: lets `reading` finish what stdout still holds, closing stdout if it stays open past 2 s. */
export async function finishReading(reading: Promise<void>, stdout: { destroy(): void }): Promise<void> {
  const timer = setTimeout(() => stdout.destroy(), STDOUT_AFTER_EXIT_MS);
  await reading.catch(() => undefined);
  clearTimeout(timer);
}
