/**
 * Where debussy learns about other processes: their parent, process group, start time, whether
 * they have exited, and whether their environment carries a marker. Two backends answer the same
 * questions: procfs (Linux: reads /proc, no child process) and ps (macOS, the BSDs, any system
 * without /proc: one `ps` call per question). The choice is made here and nowhere else.
 *
 * `DEBUSSY_PROCESS_BACKEND=ps` (or `procfs`) forces a backend. It is a test and diagnostic switch
 * (the tests use it to run the portable path on Linux), not a setting: left unset, debussy uses
 * procfs wherever /proc is mounted and ps everywhere else.
 */
import { existsSync } from 'node:fs';
import { procfsTable } from './procfs-table.js';
import { psTable } from './ps-table.js';

export type ProcessBackend = 'procfs' | 'ps';

export const PROCESS_BACKEND_VAR = 'DEBUSSY_PROCESS_BACKEND';

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

/** The backend to use: forced by DEBUSSY_PROCESS_BACKEND, else procfs where /proc is mounted. */
export function chooseProcessBackend(forced: string | undefined, hasProcfs: boolean): ProcessBackend {
  if (forced === 'ps' || forced === 'procfs') return forced;
  return hasProcfs ? 'procfs' : 'ps';
}

let procfsMounted: boolean | undefined;

export function processTable(env: NodeJS.ProcessEnv = process.env): ProcessTable {
  procfsMounted ??= existsSync('/proc/self/stat');
  return chooseProcessBackend(env[PROCESS_BACKEND_VAR], procfsMounted) === 'ps' ? psTable : procfsTable;
}
