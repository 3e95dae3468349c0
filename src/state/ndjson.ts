/**
 * The one way state is written and read: NDJSON files appended by several processes at once.
 *
 * Writing: each record is one write(2) on an O_APPEND descriptor, then fsync. O_APPEND makes the
 * kernel place every write at the current end of file, so concurrent writers never overwrite or
 * interleave each other; fsync makes the record survive a crash once the call returns.
 *
 * Reading: the file is streamed line by line. A line that is not a valid record is counted and
 * returned, never fatal; a last line without its newline (a crash mid-write) is reported as a torn
 * tail.
 */
import { closeSync, createReadStream, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { StateError } from '../errors/index.js';
import { errorMessage } from '../errors/error-message.js';

export interface BadLine {
  /** 1-based line number in the file. */
  line: number;
  /** The line, cut to a readable length. */
  text: string;
  /** Why a line of JSON is not a record (from its reader); absent for a line that is not JSON. */
  problem?: string;
}

/** What a reader returns for a line of JSON that is not one of its records: the line counts as bad, with why. */
export class NotARecord {
  constructor(readonly problem: string) {}
}

export interface NdjsonRead<T> {
  records: T[];
  badLines: BadLine[];
  /** The file ends in a partial line that is not a valid record. */
  tornTail: boolean;
}

const NEWLINE = 0x0a;
const BAD_LINE_SHOWN_CHARS = 500;
const TORN_TAIL_SETTLE_MS = 5;

function lastByte(fd: number): number | undefined {
  const { size } = fstatSync(fd);
  if (size === 0) return undefined;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0];
}

/**
 * True when the file ends in a partial line left by a crash. Another process's write can be seen
 * half done (the kernel grows the file page by page), so a partial line is looked at again after a
 * moment: a live write finishes, a torn one stays. Misjudging costs only a blank line.
 */
function endsInTornLine(fd: number): boolean {
  if ((lastByte(fd) ?? NEWLINE) === NEWLINE) return false;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, TORN_TAIL_SETTLE_MS);
  const last = lastByte(fd);
  return last !== undefined && last !== NEWLINE;
}

function syncDirectory(dir: string): void {
  // Makes a newly created file's directory entry durable. Not every platform allows it.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

/** Appends `record` as one line. Synchronous so a record is on disk before the caller moves on. */
export function appendRecord(file: string, record: unknown): void {
  appendLine(file, JSON.stringify(record));
}

/** Appends one line of JSON text (a record already serialized, e.g. sealed: journal-seal.ts), as appendRecord does. */
export function appendLine(file: string, line: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(file, 'a+');
    try {
      const created = fstatSync(fd).size === 0;
      // After a crash mid-write the file ends in a torn line; start on a fresh line so this record
      // is not glued onto the fragment (the fragment then reads as one bad line). Blank lines are
      // skipped by readers.
      const prefix = endsInTornLine(fd) ? '\n' : '';
      const payload = Buffer.from(`${prefix}${line}\n`, 'utf8');
      let written = 0;
      while (written < payload.length) written += writeSync(fd, payload, written);
      fsyncSync(fd);
      if (created) syncDirectory(dirname(file));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw stateWriteError(file, error);
  }
}

const WRITE_FAILURES: Record<string, string> = {
  ENOTDIR: 'a file or a broken link is where a directory should be',
  ENOENT: 'a broken link or a missing directory is in the way',
  EEXIST: 'a file is where a directory should be',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ELOOP: 'a symbolic link loop is in the way',
  EISDIR: 'a directory is where a file should be',
};

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest ancestor of `dir` (or `dir`) that exists but is not a directory, else `dir`. */
function inTheWay(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    try {
      const entry = lstatSync(at);
      if (entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(at))) return dir;
      return at;
    } catch {
      if (dirname(at) === at) return dir;
    }
  }
}

/** Why a file could not be written, in words (a file in the way, permissions, space). */
export function writeFailureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined ? WRITE_FAILURES[code] : undefined) ?? code ?? errorMessage(error);
}

/** The one error for state debussy cannot write: the path, why, and what to do. */
export function stateWriteError(path: string, error: unknown): StateError {
  const why = writeFailureReason(error);
  return new StateError('E_STATE_WRITE', `cannot write debussy's state at ${path} (${why})`, {
    cause: error,
    hint: `make ${inTheWay(dirname(path))} a writable directory (remove or rename a file or broken link in its place, check permissions and free space), then run again`,
  });
}

async function* lines(file: string): AsyncGenerator<{ text: string; terminated: boolean }> {
  let pending: Buffer[] = [];
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      pending.push(chunk.subarray(start, end));
      yield { text: Buffer.concat(pending).toString('utf8'), terminated: true };
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield { text: Buffer.concat(pending).toString('utf8'), terminated: false };
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Reads every record of the file. A missing file reads as empty. `read` sees each line's JSON and
 * text and returns the record to keep, undefined to pass over the line, or NotARecord (a bad line).
 */
export async function readRecords<T>(file: string, read: (value: unknown, text: string) => T | undefined | NotARecord): Promise<NdjsonRead<T>> {
  const result: NdjsonRead<T> = { records: [], badLines: [], tornTail: false };
  let lineNumber = 0;
  try {
    for await (const { text, terminated } of lines(file)) {
      lineNumber += 1;
      if (text.trim() === '') continue;
      const parsed = parse(text);
      const record = parsed.ok ? read(parsed.value, text) : undefined;
      if (parsed.ok && !(record instanceof NotARecord)) {
        if (record !== undefined) result.records.push(record);
      } else if (!terminated) result.tornTail = true;
      else result.badLines.push({ line: lineNumber, text: text.slice(0, BAD_LINE_SHOWN_CHARS), ...(record instanceof NotARecord ? { problem: record.problem } : {}) });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && lineNumber === 0) return result;
    throw new StateError('E_STATE_READ', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  return result;
}
