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
   * When the process started, in the backend's clock (see start-clock.ts): kernel clock
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
  /**
   * The start time, in the table's clock, of the process the marker was given to (a gate's shell,
   * a session's claude). Whatever carries the marker was started by it or after it, so no process
   * that started earlier is searched for the marker (under procfs, its environment is not even
   * read). Unknown: every process is searched.
   */
  rootStartTime?: number;
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
  /**
   * `rootPid` and its descendants that have not exited (none when the root has), read by following
   * the kernel's lists of each process's children instead of reading the whole table, none of them
   * marked. Undefined when this table cannot follow them (no such lists, one could not be read):
   * `list()` answers then.
   */
  listTree?(rootPid: number): ListedProcess[] | undefined;
}
