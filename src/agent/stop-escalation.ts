/**
 * Stopping a process in steps: SIGINT (claude aborts the turn and kills its running tool), then
 * SIGTERM, then SIGKILL, each after a grace period if the process is still there.
 */
import type { ChildProcess } from 'node:child_process';

export class StopEscalation {
  private readonly timers = new Set<NodeJS.Timeout>();
  private exited = false;

  constructor(
    private readonly child: ChildProcess,
    private readonly graceMs: number,
    private readonly note: (text: string) => void,
  ) {}

  start(): void {
    this.send('SIGINT');
    this.after(this.graceMs, () => {
      this.note('still running: SIGTERM');
      this.send('SIGTERM');
      this.after(this.graceMs, () => {
        this.note('still running: SIGKILL');
        this.send('SIGKILL');
      });
    });
  }

  send(signal: NodeJS.Signals): void {
    if (this.exited) return;
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  /** Runs `action` in `ms` unless the process has exited by then. */
  after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.exited) action();
    }, ms);
    this.timers.add(timer);
  }

  /** The process has exited: no signal may reach a recycled pid. */
  processExited(): void {
    this.exited = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
