/** What every phase of a run shares: where it runs, its settings, and where it reports. */
import type { AgentDriver } from '../agent/agent-driver.js';
import type { DebussyConfig } from '../config/index.js';
import type { FileState, UserChange } from '../git/index.js';
import type { Plan } from '../plan/types.js';
import type { ExitCodeName } from '../errors/index.js';
import type { Reporter } from '../report/reporter.js';
import type { PriceTable } from '../cost/prices.js';
import type { BaselineResultEvent, PhaseState } from '../state/index.js';
import type { RunRecovery } from './run-recovery.js';
import type { RunRecorder } from './run-recorder.js';
import type { UsagePause } from './parallel/usage-pause.js';

export interface PhaseContext {
  root: string;
  plan: Plan;
  config: DebussyConfig;
  /** The agent CLI every session of the run goes through. */
  agent: AgentDriver;
  runId: string;
  runDir: string;
  shimDir: string;
  recorder: RunRecorder;
  reporter: Required<Reporter>;
  /** Whether debussy may commit (auto_commit on and inside a git repository). */
  useGit: boolean;
  /** Whether root is inside a git repository (checkpoints read git even when debussy does not commit). */
  gitRepo: boolean;
  /** First Ctrl-C / SIGTERM: stop gracefully. */
  interrupt: AbortSignal;
  /** Second Ctrl-C: end everything now. */
  forceStop: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** Circuit breaker, crash-loop guard and failures, shared by the run's phases. */
  recovery: RunRecovery;
  /** Phases taken as done so far (earlier runs and this one): their gates are the regression gates (regression_gates: each). */
  completedPhases: ReadonlySet<string>;
  /** The price table for estimates: the shipped one with the config's `prices` (cost/prices.ts). */
  prices: PriceTable;
  /** How the user runs this again (said when a budget or a usage limit ends the run). */
  resumeCommand: string;
  /** Puts back the agent's debussy if something deleted it (run-state-guard.ts), before each of its tool calls. */
  keepLiveFiles?: () => void;
  /** --parallel: the run's one usage-limit wait, which every phase joins (parallel/usage-pause.ts). */
  usagePause?: UsagePause;
  /** Writes back debussy's config and plan files if the agent deleted them (run-state-guard.ts); the paths it could not. */
  keepInputs?: () => string[];
  /** A queue worker's run: checkpoint and interrupted commits carry the progress recorded (phase-commits.ts). */
  progressInCommits?: boolean;
}

export type PhaseResult =
  /** `verifiedOnly`: a completed phase verified again after its plan changed, its gates passing: no session ran. */
  | { status: 'completed'; verifiedOnly?: boolean }
  | { status: 'failed'; reason: string; hint: string }
  | { status: 'skipped'; reason: string }
  /** Recovery gave up on more than the phase: the run stops with this exit code. */
  | { status: 'aborted'; reason: string; hint: string; exitKind: ExitCodeName }
  /** A budget reached, or a usage limit that resets beyond max_wait: the work is committed, the phase stays in progress and the next run resumes it. */
  /** `resumeCommand`: what goes on from here when the plain command would not (a budget to raise). */
  | { status: 'paused'; reason: string; hint: string; exitKind: 'budget' | 'usageLimit'; resumeCommand?: string }
  | { status: 'blocked'; reason: string }
  | { status: 'interrupted' };

/** Counters and checkpoint a phase starts with: zero for a new phase, carried over on resume. */
export interface PhaseCarry {
  restarts: number;
  retries: number;
  /** Sessions the phase already had (for numbering logs). */
  sessions: number;
  /** Set when resuming an interrupted phase: start from a checkpoint of its last state. */
  resumeReason?: string;
  /** On a resume: what the phase spent in the runs before (max_phase_cost counts it). */
  priorCostUsd?: number;
  baseSha?: string;
  /** On a resume: the user's changes recorded when the phase first started (never taken again). */
  userChanges?: UserChange[];
  /** On a resume after a graceful stop: what the phase left uncommitted then. */
  uncommittedAtStop?: FileState[];
  /** A completed phase whose file or gates changed since (plan_changed): why its gates run again before it counts as done. */
  reverify?: string;
  /** On a resume: the gates' verdict before the phase's first session, recorded by the interrupted run. */
  baseline?: BaselineResultEvent[];
  /** On a resume: the interrupted run, and what it recorded that the new journal lacks. */
  resumedFrom?: {
    runId: string;
    progress: PhaseState['progress'];
    lastActivity: string[];
    /** Set when its last session never ended (debussy was killed): its last steps are read from here. */
    unendedSessionLog?: string;
  };
}
