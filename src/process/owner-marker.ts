/**
 * Which debussy started a process. `debussy run` puts DEBUSSY_OWNER=<pid>-<start time> in its own
 * environment at start, so every child it starts inherits it: git and its hooks, gates, the agent
 * and every tool process the agent starts, including those that leave their process group
 * (setsid) or are re-parented to init. After debussy itself was killed (kill -9), the next run
 * finds whatever is left by that variable and ends it; a recycled PID has another start time, so
 * an unrelated process is never taken for an orphan.
 */
import { isProcessAlive, processStartTime } from './identity.js';
import { findMarkedProcesses, type ProcessRef } from './tree.js';

export const OWNER_MARKER_VAR = 'DEBUSSY_OWNER';

export interface ProcessOwner {
  pid: number;
  /** Start time (identity.ts); without it only the PID is matched (and only while no process has it). */
  startTime?: number;
}

export function ownerMarkerValue(owner: ProcessOwner): string {
  return `${owner.pid}-${owner.startTime ?? 'x'}`;
}

/** Marks every child this process starts from now on as its own. */
export function markChildrenAsOwn(env: NodeJS.ProcessEnv = process.env): void {
  const startTime = processStartTime(process.pid);
  env[OWNER_MARKER_VAR] = ownerMarkerValue({ pid: process.pid, ...(startTime === undefined ? {} : { startTime }) });
}

/**
 * The processes a dead debussy left behind; none while that debussy (or, with no start time
 * known, any process with its PID) is still alive.
 */
export function findOrphansOf(owner: ProcessOwner): ProcessRef[] {
  if (isProcessAlive(owner.pid, owner.startTime)) return [];
  if (owner.startTime === undefined) return findMarkedProcesses({ name: OWNER_MARKER_VAR, value: `${owner.pid}-`, prefix: true });
  return findMarkedProcesses({ name: OWNER_MARKER_VAR, value: ownerMarkerValue(owner) });
}
