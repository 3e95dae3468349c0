/**
 * The clocks of process start times, as pure functions. A start time comes from the process table
 * (process-table.ts) in that backend's clock: kernel clock ticks since boot from procfs, Unix epoch
 * milliseconds from ps. The two ranges cannot overlap (ticks would need over 30 years of uptime to
 * reach 1e11; epoch milliseconds passed it in 1973), so a recorded start time says which clock it
 * is in. A time recorded in the other clock (a lock written under the other backend) cannot be
 * compared: the PID alone decides then, as for a record without a start time, which errs towards
 * "still running".
 */
const EPOCH_MS_FLOOR = 1e11;

export type StartClock = 'ticks' | 'epoch-ms';

export function startClockOf(startTime: number): StartClock {
  return startTime >= EPOCH_MS_FLOOR ? 'epoch-ms' : 'ticks';
}

/** Whether a recorded start time and an observed one name the same process (see the header). */
export function sameStart(recorded: number, observed: number): boolean {
  if (startClockOf(recorded) !== startClockOf(observed)) return true;
  return recorded === observed;
}

/**
 * How much earlier than a bound a start time may read and still count as "not before it". procfs
 * gives every process its own tick count from one counter: a process started in the same tick
 * reads equal, never earlier. ps prints whole seconds of wall-clock time derived from the boot
 * time, and procps works the boot time out afresh in each run, so the bound (read by one ps run)
 * and the scan (another) may disagree by a second.
 */
const SLACK: Record<StartClock, number> = { ticks: 0, 'epoch-ms': 1000 };

/**
 * Whether a process that started at `observed` may have started at or after `bound` (the start
 * time of the process a marker was given to): with no bound, or a bound in the other clock, it
 * may, since nothing can be ruled out.
 */
export function startedAtOrAfter(observed: number, bound: number | undefined): boolean {
  if (bound === undefined) return true;
  const clock = startClockOf(bound);
  if (startClockOf(observed) !== clock) return true;
  return observed >= bound - SLACK[clock];
}
