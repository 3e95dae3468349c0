/**
 * The running debussy's hold on its own journal. The journal sits in the work tree, where the agent
 * can delete it (`git clean -fdx`, `rm -rf .debussy`) or put a file in its way while the run still
 * needs it. So the run keeps every line of it in memory (its own events, and what the agent's
 * `debussy done`/`progress` appended, taken in as they arrive), looks at the file before each use,
 * and writes it back when it is gone or replaced. A journal is small (tens of KB for a long run),
 * so the copy costs little; the run's state is folded from it without reading the file again.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendLine, stateWriteError } from './ndjson.js';
import type { StateError } from '../errors/index.js';

export interface JournalLoss {
  /** deleted: the file is gone; replaced: another file is in its place; unwritable: it cannot be written. */
  kind: 'deleted' | 'replaced' | 'unwritable';
  /** Whether the file holds the whole journal again. */
  restored: boolean;
  /** Why it could not be written back, when it could not. */
  error?: StateError;
}

const NEWLINE = 0x0a;

export class JournalKeeper {
  /** Every complete line of the journal as this run knows it, without newlines. */
  private readonly lines: string[] = [];
  /** The file's inode and how many of its bytes are in `lines`; undefined before it exists. */
  private ino: number | undefined;
  private size = 0;
  /** `lines` holds lines the file lacks: every look tries to write them back. */
  private behind = false;
  private error: StateError | undefined;

  constructor(readonly file: string) {}

  /** Every line known, oldest first. */
  get records(): readonly string[] {
    return this.lines;
  }

  /** Whether the file lacks lines the run wrote (it could not be written back yet). */
  get unsaved(): boolean {
    return this.behind;
  }

  /** Why the file could not be written last time, while it lacks lines. */
  get lastError(): StateError | undefined {
    return this.behind ? this.error : undefined;
  }

  /** Takes in what the file holds now, to keep a file this process did not create (the project journal). */
  adopt(): this {
    this.takeIn();
    return this;
  }

  /** Appends one record (its line of JSON, without the newline), after a look at the file; returns what the look found. Never throws. */
  append(line: string): JournalLoss | undefined {
    const loss = this.check();
    if (this.behind) {
      this.lines.push(line);
      this.restore();
      return loss;
    }
    try {
      appendLine(this.file, line);
    } catch (error) {
      this.lines.push(line);
      this.behind = true;
      this.error = stateWriteError(this.file, error);
      return loss ?? { kind: 'unwritable', restored: false, error: this.error };
    }
    this.takeIn();
    return loss;
  }

  /**
   * Looks at the file: takes in what other processes appended, and writes the journal back when
   * the file is gone, replaced or short. Returns what was wrong, undefined when nothing was.
   */
  check(): JournalLoss | undefined {
    if (this.behind) {
      this.restore();
      return undefined; // already reported when it first went wrong
    }
    if (this.ino === undefined) return undefined; // nothing written yet
    let stat;
    try {
      stat = statSync(this.file);
    } catch {
      return this.lose('deleted');
    }
    // An inode number is reused at once on most file systems: the first line tells files apart.
    if (stat.ino !== this.ino || stat.size < this.size || !this.startsAsOurs()) return this.lose('replaced');
    if (stat.size > this.size) this.takeIn();
    return undefined;
  }

  private lose(kind: 'deleted' | 'replaced'): JournalLoss {
    this.behind = true;
    const error = this.restore();
    return { kind, restored: error === undefined, ...(error === undefined ? {} : { error }) };
  }

  /** Reads what was appended since the last look, up to the last complete line. */
  private takeIn(): void {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return;
    }
    try {
      const { ino, size } = fstatSync(fd);
      if (this.ino !== undefined && ino !== this.ino) return; // replaced: the next check says so
      this.ino = ino;
      if (size <= this.size) return;
      const fresh = Buffer.alloc(size - this.size);
      const read = readSync(fd, fresh, 0, fresh.length, this.size);
      const end = fresh.subarray(0, read).lastIndexOf(NEWLINE);
      if (end === -1) return;
      for (const line of fresh.toString('utf8', 0, end).split('\n')) if (line.trim() !== '') this.lines.push(line);
      this.size += end + 1;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Writes the whole journal back in one rename: the known lines, then any complete lines a file
   * now in its place holds (appended after the loss). Undefined when it worked.
   */
  private restore(): StateError | undefined {
    const since = this.linesOfNewFile();
    const text = `${[...this.lines, ...since].join('\n')}\n`;
    const temporary = `${this.file}.restore-${process.pid}`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const fd = openSync(temporary, 'w');
      try {
        const bytes = Buffer.from(text, 'utf8');
        let written = 0;
        while (written < bytes.length) written += writeSync(fd, bytes, written);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.file);
      const stat = statSync(this.file);
      this.lines.push(...since);
      this.ino = stat.ino;
      this.size = stat.size;
      this.behind = false;
      return undefined;
    } catch (error) {
      this.error = stateWriteError(this.file, error);
      return this.error;
    }
  }

  /** Whether the file begins with the journal's first line, as the run's own journal does. */
  private startsAsOurs(): boolean {
    const first = this.lines[0];
    if (first === undefined) return true;
    const expected = Buffer.from(`${first}\n`, 'utf8');
    let fd: number | undefined;
    try {
      fd = openSync(this.file, 'r');
      const found = Buffer.alloc(expected.length);
      const read = readSync(fd, found, 0, found.length, 0);
      return read === expected.length && found.equals(expected);
    } catch {
      return false;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Complete lines of a file that replaced the journal (appended after the loss); none if it is ours. */
  private linesOfNewFile(): string[] {
    try {
      if (this.startsAsOurs()) return [];
      const text = readFileSync(this.file, 'utf8');
      const end = text.lastIndexOf('\n');
      return end === -1 ? [] : text.slice(0, end).split('\n').filter((line) => line.trim() !== '');
    } catch {
      return [];
    }
  }
}

/** The one sentence for a lost journal: what happened, what debussy did, what comes next. */
export function describeJournalLoss(loss: JournalLoss, journalShown: string): string {
  const what = loss.kind === 'unwritable'
    ? `debussy's state cannot be written: ${loss.error?.message ?? journalShown}`
    : `debussy's state was deleted during the run: ${journalShown} was ${loss.kind === 'deleted' ? 'removed' : 'replaced'} (something in the session cleaned the work tree, e.g. \`git clean -fdx\` or \`rm -rf .debussy\`)`;
  const done = loss.restored
    ? 'the journal was written back from memory (session logs written before now are lost)'
    : 'debussy keeps the journal in memory and tries again';
  return `${what}; ${done}; stopping the session, committing its work, and ending the run (\`debussy run\` resumes)`;
}
