/**
 * Timers that act only while a process lives, all cleared the moment it exits: no signal or step
 * of a stop reaches a pid the system may already have given to another process. Shared by the
 * stop escalation (claude) and the spawned agents (codex, gemini).
 */
export class ExitTimers {
  private readonly timers = new Set<NodeJS.Timeout>();
  private ended: boolean;

  constructor(exited = false) {
    this.ended = exited;
  }

  get exited(): boolean {
    return this.ended;
  }

  /** `action` after `ms`, unless the process has exited by then. */
  after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.ended) action();
    }, ms);
    this.timers.add(timer);
  }

  /** The process has exited: every pending timer is cleared. */
  exit(): void {
    this.ended = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
