/**
 * Process identity: a PID alone is not an identity, because the kernel recycles PIDs. A PID plus
 * its start time (clock ticks since boot, from /proc) names one process for its whole life, so a
 * lock holder or an orphaned agent is never confused with an unrelated process that got its PID.
 */
import { existsSync, readFileSync } from 'node:fs';

interface ProcStat {
  /** One-letter scheduler state; `Z` (zombie) and `X` (dead) mean the process has exited. */
  state: string;
  startTime: number;
}

function isValidPid(pid: number): boolean {
  // kill(0, 0) and kill(-1, 0) address process groups, never a single process.
  return Number.isSafeInteger(pid) && pid > 0;
}

let procAvailable: boolean | undefined;
function hasProcfs(): boolean {
  procAvailable ??= existsSync('/proc/self/stat');
  return procAvailable;
}

function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2 is the command name in parentheses and may itself contain spaces or ')'.
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const fields = text.slice(close + 1).trim().split(/\s+/);
  // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
  const state = fields[0];
  const startTime = Number(fields[19]);
  if (state === undefined || !Number.isSafeInteger(startTime)) return undefined;
  return { state, startTime };
}

/** Field 22 of /proc/<pid>/stat; undefined when the process is gone or /proc is not readable. */
export function processStartTime(pid: number): number | undefined {
  if (!isValidPid(pid)) return undefined;
  return readProcStat(pid)?.startTime;
}

/**
 * True when `pid` names a running process and, if `startTime` is given and /proc can tell, the
 * same process that had that start time. A zombie counts as gone: it has exited, only its exit
 * status is left for its parent.
 */
export function isProcessAlive(pid: number, startTime?: number): boolean {
  if (!isValidPid(pid)) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!hasProcfs()) return true;
  const stat = readProcStat(pid);
  if (stat === undefined) return false;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return startTime === undefined || stat.startTime === startTime;
}
