/**
 * What the process table answers, whichever backend reads it (process-table.ts chooses): the
 * shapes the backends produce and the rest of debussy consumes.
 */
export type ProcessBackend = 'procfs' | 'ps';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Process group id; -1 when the backend could not tell. */
  pgid: number;
  /**
   * When the process started, in the backend's clock (see identity.ts `sameStart`): kernel clock
   * ticks since boot from procfs, Unix epoch milliseconds (whole seconds) from ps.
   */
  startTime: number;
  /** A zombie or dead entry: the process has exited, only its exit status is left. */
  exited: boolean;
}

/**
 * An environment variable that marks processes. With `prefix`, any value that starts with `value`
 * matches (an owner whose start time is not known).
 */
export interface ProcessMarker {
  name: string;
  value: string;
  prefix?: boolean;
}

export interface ListedProcess extends ProcessEntry {
  /** Whether the process's environment carries the marker asked for (false when none was). */
  marked: boolean;
}

export interface ProcessTable {
  readonly backend: ProcessBackend;
  /**
   * The entries of those of `pids` that exist (exited ones included, flagged); undefined when this
   * table cannot be read at all (no /proc, no ps), so the caller knows it cannot tell.
   */
  readMany(pids: readonly number[]): Map<number, ProcessEntry> | undefined;
  /** Every visible process that has not exited; empty when the table cannot be read. */
  list(marker?: ProcessMarker): ListedProcess[];
}
