/**
 * One usage-limit wait for the whole run (--parallel): the phase that meets the limit first waits
 * for its reset; a phase that meets it meanwhile joins that wait instead of starting its own, and
 * no phase starts a new session until the wait is over. At --parallel 1 there is none, and the
 * phase runner waits as it always did.
 */
export class UsagePause {
  private active: { untilMs: number; ended: Promise<boolean> } | undefined;

  /** The wait in progress: when it ends, and whether it ran to its end (false: interrupted). */
  current(): { untilMs: number; ended: Promise<boolean> } | undefined {
    return this.active;
  }

  /** Makes `ended` the run's wait until it settles. */
  begin(untilMs: number, ended: Promise<boolean>): void {
    const active = { untilMs, ended };
    this.active = active;
    const clear = () => {
      if (this.active === active) this.active = undefined;
    };
    ended.then(clear, clear);
  }

  /** Resolves once no wait is in progress. */
  async idle(): Promise<void> {
    while (this.active !== undefined) await this.active.ended.catch(() => false);
  }
}
