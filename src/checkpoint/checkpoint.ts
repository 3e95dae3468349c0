/** What a fresh session needs to know about the sessions of its phase that came before it. */

export interface Checkpoint {
  phaseId: string;
  phaseTitle: string;
  /** 1-based number of the session about to start (restart or retry). */
  sessionNumber: number;
  /** Why the previous session ended: "context at 82% of 200,000 tokens", "the session crashed", ... */
  reason: string;
  /** Progress entries the agent recorded with `debussy progress`, oldest first. */
  progress: string[];
  /** Files changed since the phase started (committed or not), relative to the project root; not the user's. */
  changedFiles: string[];
  /**
   * Files that differ from the phase's start because the user had changed them before it began
   * (recorded as user_changes): never the phase's to commit or undo. Omitted when there are none.
   */
  userChangedFiles?: string[];
  /** A short diff summary (files and line counts). */
  diffSummary: string;
  /** The last few things the agent did (condensed tool calls and text), oldest first. */
  lastActivity: string[];
  /** Commits made during the phase so far (`sha subject`), by debussy or by the agent. */
  commits: string[];
  /**
   * How many of the changed files differ from HEAD (changed, staged, new): work not committed
   * yet. Undefined when git is not used: then nothing is known about it.
   */
  uncommittedFiles?: number;
}
