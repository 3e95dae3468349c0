/**
 * Keeps track of every process of one session so none outlives it. Descendants are snapshotted
 * while the session runs (under /proc, read down from the root through the kernel's children lists;
 * one `ps` where there is no /proc); at the end, everything still alive that was seen, or that
 * carries the session's marker variable, is terminated.
 */
import { isProcessAlive } from '../process/identity.js';
import { processTable, type ProcessBackend } from '../process/process-table.js';
import { findDescendants, findSessionProcesses, terminateProcesses, type ProcessRef } from '../process/tree.js';

export const SESSION_MARKER_VAR = 'DEBUSSY_SESSION_MARKER';

/**
 * How often a session's descendants are snapshotted. Under /proc it reads a few files per process
 * of the session's tree, well under a millisecond; a `ps` run (macOS) is a child process the event
 * loop waits for, tens of milliseconds, so it runs every few seconds rather than every second.
 * What carries the session's marker is found at the end either way; the snapshot is for
 * descendants that dropped it.
 */
export function snapshotIntervalMs(backend: ProcessBackend): number {
  return backend === 'ps' ? 5_000 : 1_000;
}

export class SessionProcesses {
  private readonly seen = new Map<number, ProcessRef>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly root: ProcessRef,
    private readonly marker: string,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.snapshot(), snapshotIntervalMs(processTable().backend));
    this.timer.unref();
  }

  snapshot(): void {
    // Parent links only mean something while the root is the process we started.
    for (const ref of findDescendants(this.root)) this.seen.set(ref.pid, ref);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Terminates whatever of the session is left (the root excluded); resolves with how many. */
  async terminateLeftovers(graceMs: number): Promise<number> {
    this.stop();
    const rootAlive = isProcessAlive(this.root.pid, this.root.startTime);
    // The root was given the marker: nothing that started before it is searched for it.
    const marker = { name: SESSION_MARKER_VAR, value: this.marker, ...(this.root.startTime === undefined ? {} : { rootStartTime: this.root.startTime }) };
    const now = findSessionProcesses(rootAlive ? this.root.pid : -1, marker);
    for (const ref of now) this.seen.set(ref.pid, ref);
    const alive = [...this.seen.values()].filter((ref) => ref.pid !== this.root.pid && isProcessAlive(ref.pid, ref.startTime));
    this.seen.clear();
    return alive.length === 0 ? 0 : terminateProcesses(alive, graceMs);
  }
}
