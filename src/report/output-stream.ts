/**
 * stdout or stderr as debussy's writers use them during a run. Once nobody reads the stream any
 * more (EPIPE: `debussy run … | head`, a pager quit, a reader that died) nothing more is written
 * there, and the run carries on: the journal and the session logs keep everything, and an
 * unattended run must not die because its reader went away. Node ignores SIGPIPE and reports
 * EPIPE as an 'error' on the stream, after the write that failed; a write that throws counts too.
 * A terminal that is gone (EIO after a hang-up) is not this: that is a stop (cli/commands/run.ts).
 */
import type { LiveTerminal } from './live-reporter.js';

/** What an output stream needs to be: process.stdout and process.stderr fit. */
export interface WritableOutput {
  write(text: string): unknown;
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  readonly columns?: number;
  readonly rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** True for the error a write gets when the stream's reader has gone. */
export function readerIsGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === 'EPIPE';
}

export class OutputStream implements LiveTerminal {
  private gone = false;

  constructor(private readonly stream: WritableOutput) {
    stream.on('error', (error) => {
      if (readerIsGone(error)) this.gone = true;
    });
  }

  /** Whether the reader has gone: nothing is written any more. */
  get readerGone(): boolean {
    return this.gone;
  }

  get columns(): number | undefined {
    return this.stream.columns;
  }

  get rows(): number | undefined {
    return this.stream.rows;
  }

  /** Writes `text`, or nothing once the reader has gone. Never throws. */
  write(text: string): void {
    if (this.gone) return;
    try {
      this.stream.write(text);
    } catch (error) {
      if (readerIsGone(error)) this.gone = true;
    }
  }

  on(event: 'resize', listener: () => void): void {
    this.stream.on(event, listener);
  }

  off(event: 'resize', listener: () => void): void {
    this.stream.off(event, listener);
  }
}
