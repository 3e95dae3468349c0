/**
 * Process identity: a PID alone is not an identity, because the kernel recycles PIDs. A PID plus
 * its start time names one process for its whole life, so a lock holder or an orphaned agent is
 * never confused with an unrelated process that got its PID.
 *
 * The start time comes from the process table (process-table.ts) in that backend's clock; how the
 * clocks are told apart and compared is in start-clock.ts.
 */
import { processTable, type ProcessBackend, type ProcessEntry } from './process-table.js';
import { sameStart } from './start-clock.js';

export { sameStart, startClockOf, startedAtOrAfter, type StartClock } from './start-clock.js';

export interface ProcessIdentity {
  pid: number;
  startTime?: number;
}

function isValidPid(pid: number): boolean {
  // kill(0, 0) and kill(-1, 0) address process groups, never a single process.
  return Number.isSafeInteger(pid) && pid > 0;
}

/** kill(pid, 0): whether any process has this PID (EPERM: one of another user's). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const ownStartTime = new Map<ProcessBackend, number>();

/** The start time of `pid` in the current backend's clock; undefined when it is gone or cannot be read. */
export function processStartTime(pid: number): number | undefined {
  if (!isValidPid(pid)) return undefined;
  const table = processTable();
  // Our own start time never changes: ask once (the lock and the owner marker ask repeatedly).
  if (pid === process.pid) {
    const known = ownStartTime.get(table.backend);
    if (known !== undefined) return known;
  }
  const startTime = table.readMany([pid])?.get(pid)?.startTime;
  if (pid === process.pid && startTime !== undefined) ownStartTime.set(table.backend, startTime);
  return startTime;
}

function stillThere(ref: ProcessIdentity, entry: ProcessEntry | undefined): boolean {
  if (entry === undefined || entry.exited) return false;
  return ref.startTime === undefined || sameStart(ref.startTime, entry.startTime);
}

/**
 * Those of `refs` that still run and, where a start time is given and the table can tell, are the
 * same process that had it. One read of the process table for all of them (one `ps` under the ps
 * backend); when the table cannot be read at all, the PID alone decides.
 */
export function liveProcesses<T extends ProcessIdentity>(refs: readonly T[]): T[] {
  const candidates = refs.filter((ref) => isValidPid(ref.pid) && pidExists(ref.pid));
  if (candidates.length === 0) return [];
  const entries = processTable().readMany(candidates.map((ref) => ref.pid));
  if (entries === undefined) return candidates;
  return candidates.filter((ref) => stillThere(ref, entries.get(ref.pid)));
}

/**
 * True when `pid` names a running process and, if `startTime` is given and the process table can
 * tell, the same process that had that start time. A zombie counts as gone: it has exited, only
 * its exit status is left for its parent.
 */
export function isProcessAlive(pid: number, startTime?: number): boolean {
  return liveProcesses([startTime === undefined ? { pid } : { pid, startTime }]).length === 1;
}
