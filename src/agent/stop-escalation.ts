/**
 * Stopping a process in steps: SIGINT (claude aborts the turn and kills its running tool), then
 * SIGTERM, then SIGKILL, each after a grace period if the process is still there. The last step is
 * execa's: the agent process was started with a force-kill delay of the same grace
 * (agent-process.ts), so every SIGTERM it gets is followed by SIGKILL unless it exits.
 */
import type { AgentProcess } from './agent-process.js';
import { ExitTimers } from './exit-timers.js';

export class StopEscalation {
  private readonly timers = new ExitTimers();

  constructor(
    private readonly child: AgentProcess,
    private readonly graceMs: number,
    private readonly note: (text: string) => void,
  ) {}

  start(): void {
    this.send('SIGINT');
    this.after(this.graceMs, () => {
      this.note(`still running: SIGTERM (SIGKILL in ${this.graceMs} ms if it has not exited)`);
      this.send('SIGTERM');
    });
  }

  send(signal: NodeJS.Signals): void {
    if (this.timers.exited) return;
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  /** Runs `action` in `ms` unless the process has exited by then. */
  after(ms: number, action: () => void): void {
    this.timers.after(ms, action);
  }

  /** The process has exited: no signal may reach a recycled pid. */
  processExited(): void {
    this.timers.exit();
  }
}
