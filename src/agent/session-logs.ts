/**
 * A session's two logs: the raw stream (every stdout line as received, for replay and debugging)
 * and a readable log (one condensed line per event). Both are append streams; lines are gathered
 * and written in pieces of FLUSH_BYTES, or FLUSH_AFTER_MS after the first line of a piece
 * (`flush`), since every write costs the main thread about the same whatever its size (one per
 * line, then one per batch the reader handles, were most of what the logs cost: bench figure 1).
 * A line that comes after a quiet spell (no write for FLUSH_AFTER_MS: a session at a model's pace)
 * is written at once: if debussy is killed the moment after, the session's last step is in the log
 * for the next run's checkpoint. Only a burst waits, at most FLUSH_AFTER_MS. Up to QUEUED_BYTES may wait to be
 * written while the reader goes on (with node's 16 KB the reader waited for every piece to reach
 * the disk); a slower disk makes the reader wait (`drained`) instead of buffering the session in
 * memory. A log that cannot be written (a full disk, a vanished folder) is given up on, never
 * fatal to the session, and never silent: the first failure of each log is reported
 * (`onFailure`) and kept (`incomplete()`), so the run can warn and its end can name the log.
 */
import { createWriteStream, mkdirSync, writeSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { cutText, redactDeepOnce } from '../redact/index.js';
import { inertText } from '../text/inert-text.js';
import { oneLine } from '../text/one-line.js';
import type { AgentEvent } from './agent-events.js';
import { StreamedBlocks, type ReadyLine } from './claude/streamed-blocks.js';

const MAX_TEXT = 300;

/** The ends of a session's two log files' names: the readable log and the raw stream. */
export const READABLE_LOG_SUFFIX = '.log';
export const RAW_LOG_SUFFIX = '.stream.ndjson';

/** A session's log file name without its suffix: `2A-03` (phase 2A, session 3), unsafe characters replaced. */
export function sessionLogBase(phaseId: string, sessionIndex: number): string {
  return `${phaseId}-${String(sessionIndex).padStart(2, '0')}`.replace(/[^\w.-]/g, '_');
}

/** Where a session's readable log and raw stream log are written, in `logDir`. */
export function sessionLogPaths(logDir: string, phaseId: string, sessionIndex: number): { readable: string; raw: string } {
  const base = path.join(logDir, sessionLogBase(phaseId, sessionIndex));
  return { readable: `${base}${READABLE_LOG_SUFFIX}`, raw: `${base}${RAW_LOG_SUFFIX}` };
}

/** For text already redacted whole (SessionLogs.event): a cut must never leave part of a secret. */
function logText(text: string, max = MAX_TEXT): string {
  // Cut before folding whitespace: a tool output can be megabytes.
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  return cutText(oneLine(head), max);
}

/**
 * One line for people, cut from the event's text: give it a redacted event. Pure. Inert
 * (text/inert-text.ts): the log is read with `debussy logs`, `cat` and `tail -f`, and holds the
 * agent's words, tool names, inputs and output.
 */
export function formatEventLine(event: AgentEvent): string {
  // Inert once cut (logText), so only what is kept is scanned (~0.5 us a line; folding every line
  // again would cost ~4); a name or id with a line break, never seen, is folded: one event, one line.
  const line = inertText(eventLine(event));
  return line.includes('\n') ? oneLine(line) : line;
}

function eventLine(event: AgentEvent): string {
  switch (event.type) {
    case 'init':
      return `session ${event.sessionId} started: model ${event.model}${event.version === undefined ? '' : `, ${event.agent ?? 'claude'} ${event.version}`}${event.cwd === undefined ? '' : `, cwd ${event.cwd}`}`;
    case 'request_started':
      return 'request sent to the API';
    case 'output_usage':
      return `response output ${event.outputTokens} tokens`;
    case 'usage':
      return `context ${event.contextTokens} tokens (input ${event.inputTokens}, cache read ${event.cacheReadTokens}, cache write ${event.cacheCreationTokens}) ${event.messageId}`;
    case 'assistant_text':
      return `${event.parentToolUseId === undefined ? '' : '[subagent] '}says: ${logText(event.text)}`;
    case 'tool_start':
      return `${event.parentToolUseId === undefined ? '' : '[subagent] '}tool ${event.summary} (${event.toolUseId})`;
    case 'tool_result':
      return `${event.isError ? 'tool error' : 'tool done'} (${event.toolUseId}): ${logText(event.text, 160)}`;
    case 'api_error':
      return `API error ${event.errorType}: ${logText(event.text)}`;
    case 'api_retry':
      return `API retry ${event.attempt}/${event.maxRetries} in ${Math.round(event.delayMs)} ms (status ${event.errorStatus ?? 'none'})`;
    case 'model_fallback':
      return `model fallback ${event.from ?? '?'} -> ${event.to ?? '?'}`;
    case 'rate_limit':
      return `usage limit ${event.rateLimitType ?? '?'} ${event.status}${event.resetsAt === undefined ? '' : `, resets ${new Date(event.resetsAt * 1000).toISOString()}`}`;
    case 'compaction':
      return event.stage === 'started'
        ? 'compaction started'
        : `compacted ${event.preTokens ?? '?'} -> ${event.postTokens ?? '?'} tokens`;
    case 'result':
      return `result ${event.subtype}${event.isError ? ' (error)' : ''}${event.terminalReason === undefined ? '' : ` ${event.terminalReason}`}${event.apiErrorStatus == null ? '' : ` status ${event.apiErrorStatus}`}: turns ${event.numTurns ?? '?'}, cost $${event.costUsd.toFixed(4)}${event.text === undefined ? '' : `, ${logText(event.text, 200)}`}`;
    case 'unparsed_line':
      return `unparsed line ${event.lineNumber} (${event.reason}): ${logText(event.preview, 120)}`;
  }
}

const NEWLINE = Buffer.from('\n');
/** A log writes once this much has gathered... */
const FLUSH_BYTES = 256 * 1024;
/** ...or this long after the first of it arrived, or at once when nothing was written for this long. */
const FLUSH_AFTER_MS = 20;
/** What may wait to be written before the reader waits for the disk (the stream's high-water mark). */
const QUEUED_BYTES = 4 * 1024 * 1024;
/**
 * A piece up to this size, when nothing waits in the stream, is written at once with a plain
 * write(2): the stream's write hands each piece to libuv's threadpool and back, ~55 us of this
 * process's CPU a piece against ~3 us (measured on the 2-core VM of docs/performance.md), and a
 * session at a model's pace writes a small piece for nearly every event (bench figure 7). Bigger
 * pieces (a burst, bench figure 1) go through the stream, so the reader never waits for the disk.
 */
const DIRECT_WRITE_BYTES = 64 * 1024;

/** A session log that could not be written, from some point on (or at all). */
export interface LogFailure {
  path: string;
  /** Why, as the system said it: `ENOSPC: no space left on device`. */
  error: string;
}

/** The warning for a log that could not be written; `shownPath` is its path as the user should see it. Pure. */
export function describeLogFailure(failure: LogFailure, shownPath: string): string {
  return `session log ${shownPath} could not be written (${failure.error}): it is incomplete; the run goes on, and its journal keeps the session's outcome`;
}

/** `ENOSPC: no space left on device` from node's `ENOSPC: no space left on device, write`. */
function failureText(error: unknown): string {
  const { code, message } = (error ?? {}) as Partial<NodeJS.ErrnoException>;
  const text = typeof message === 'string' ? message.replace(/, \w+(?: '[^']*')?$/, '') : String(error);
  return typeof code === 'string' && !text.startsWith(code) ? `${code}: ${text}` : text;
}

class AppendLog {
  private stream: WriteStream | undefined;
  /** Why the log stopped being written, once it did. */
  failure: LogFailure | undefined;
  private pending: (string | Buffer)[] = [];
  /** Characters or bytes gathered (near enough to decide when to write). */
  private pendingSize = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When this log last wrote (ms since the epoch); 0 before it has. */
  private lastWriteAt = 0;

  constructor(
    private readonly file: string | undefined,
    private readonly onFailure: (failure: LogFailure) => void,
  ) {
    if (file === undefined) return;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const stream = createWriteStream(file, { flags: 'a', highWaterMark: QUEUED_BYTES });
      this.stream = stream;
      // Logging is a convenience: a full disk or a vanished folder must not end the session.
      stream.on('error', (error) => this.fail(error, stream));
    } catch (error) {
      this.fail(error, undefined);
    }
  }

  /** Gives up on the log: nothing more is written to it; the first failure is kept and reported. */
  private fail(error: unknown, stream: WriteStream | undefined): void {
    if (stream !== undefined && this.stream === stream) this.stream = undefined;
    stream?.destroy();
    if (this.failure !== undefined || this.file === undefined) return;
    this.failure = { path: this.file, error: failureText(error) };
    this.pending = [];
    this.pendingSize = 0;
    this.onFailure(this.failure);
  }

  /** Gathers `text` for the next flush. */
  write(text: string): void {
    if (this.stream === undefined) return;
    this.pending.push(text);
    this.pendingSize += text.length;
  }

  /** Gathers bytes and a newline for the next flush. */
  writeLine(bytes: Buffer): void {
    if (this.stream === undefined) return;
    this.pending.push(bytes, NEWLINE);
    this.pendingSize += bytes.length + 1;
  }

  /**
   * Writes what was gathered once it is FLUSH_BYTES (or at once with `now`), else sees that it is
   * written within FLUSH_AFTER_MS; false when the caller should wait for `drained()` before
   * gathering more.
   */
  flush(now = false): boolean {
    const stream = this.stream;
    if (stream === undefined || this.pending.length === 0) return stream === undefined || !stream.writableNeedDrain;
    if (!now && this.pendingSize < FLUSH_BYTES && Date.now() - this.lastWriteAt < FLUSH_AFTER_MS) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.flush(true);
      }, FLUSH_AFTER_MS).unref();
      return !stream.writableNeedDrain;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastWriteAt = Date.now();
    const pending = this.pending;
    this.pending = [];
    this.pendingSize = 0;
    const [only] = pending;
    // Text alone is joined; with bytes among it, all goes as bytes (no string is built to encode).
    const piece = pending.length === 1 && only !== undefined ? only
      : pending.every((part) => typeof part === 'string') ? pending.join('')
        : Buffer.concat(pending.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
    if (this.writeDirectly(stream, piece)) return true;
    return stream.write(piece);
  }

  /**
   * Writes a small piece at once when the stream is open and holds nothing (so the piece cannot
   * overtake one it queued); false when the stream should take it. A failed write gives up on
   * the log, as a stream error does.
   */
  private writeDirectly(stream: WriteStream, piece: string | Buffer): boolean {
    const fd = (stream as WriteStream & { fd: number | null }).fd;
    if (typeof fd !== 'number' || stream.writableLength > 0 || piece.length > DIRECT_WRITE_BYTES) return false;
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    try {
      // The file is opened for appending: each write lands at its end. A regular file takes the
      // whole piece at once; the loop is for the rare short write.
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      this.fail(error, stream);
    }
    return true;
  }

  drained(): Promise<void> {
    const stream = this.stream;
    if (stream === undefined || !stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
  }

  close(): Promise<void> {
    this.flush(true);
    const stream = this.stream;
    this.stream = undefined;
    if (stream === undefined) return Promise.resolve();
    // 'close' comes after an 'error' too: a last write that fails is known once this resolves.
    return new Promise((resolve) => {
      stream.once('close', () => resolve());
      stream.end();
    });
  }
}

export class SessionLogs {
  private readonly raw: AppendLog;
  private readonly readable: AppendLog;
  /** Holds a streamed block's pieces until it can be redacted whole (streamed-blocks.ts). */
  private readonly blocks: StreamedBlocks;

  /** `redact` scrubs secrets from every line before it reaches the disk; `onFailure` hears of a log that cannot be written. */
  constructor(
    rawLogPath: string | undefined,
    readableLogPath: string | undefined,
    private readonly redact: (text: string) => string = (text) => text,
    onFailure: (failure: LogFailure) => void = () => undefined,
  ) {
    this.raw = new AppendLog(rawLogPath, onFailure);
    this.readable = new AppendLog(readableLogPath, onFailure);
    this.blocks = new StreamedBlocks(this.redact);
  }

  /**
   * Gathers a stdout line for the raw log (written at the next flush): as received, from `bytes`
   * (what `line` was decoded from, if known) when redaction leaves it unchanged, so the stream is
   * not encoded again (bench figure 1); else the redacted text. A streamed block's pieces wait
   * until the block is complete, and so do the lines behind them.
   */
  rawLine(line: string, bytes?: Buffer): void {
    for (const ready of this.blocks.accept(line, bytes)) this.writeRaw(ready);
  }

  private writeRaw(ready: ReadyLine): void {
    if (typeof ready === 'string') this.raw.write(`${ready}\n`);
    else this.raw.writeLine(ready);
  }

  /**
   * Gathers an event's line for the readable log (written at the next flush). The event is
   * redacted whole before its line is cut from it; the reporters reuse that redaction (redact-once.ts).
   */
  event(event: AgentEvent): void {
    this.readable.write(`${new Date().toISOString()} ${formatEventLine(redactDeepOnce(event, this.redact))}\n`);
  }

  /** A line of the runner's own (stop requested, signals sent, leftovers ended), written at once. */
  note(text: string): boolean {
    this.readable.write(this.stamped(text));
    return this.flush(true);
  }

  /** Writes what was gathered (see AppendLog.flush); false when the caller should wait for `drained()`. */
  flush(now = false): boolean {
    const raw = this.raw.flush(now);
    const readable = this.readable.flush(now);
    return raw && readable;
  }

  private stamped(text: string): string {
    return `${new Date().toISOString()} ${this.redact(text)}\n`;
  }

  async drained(): Promise<void> {
    await Promise.all([this.raw.drained(), this.readable.drained()]);
  }

  /** The logs that could not be written whole (the raw stream first), and why. */
  incomplete(): LogFailure[] {
    return [this.raw.failure, this.readable.failure].filter((failure) => failure !== undefined);
  }

  async close(): Promise<void> {
    for (const ready of this.blocks.drain()) this.writeRaw(ready);
    await Promise.all([this.raw.close(), this.readable.close()]);
  }
}
