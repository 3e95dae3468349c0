/** The shape of a run as folded from its journal (see fold.ts). */
import type { FileState, UserChange } from '../git/commit-scope.js';
import type { PhaseStatus } from '../plan/types.js';
import type { PlanFingerprint } from '../plan/fingerprint.js';
import type { BaselineResultEvent, GateResultEvent, NoticeEvent, OwedRegression, PlanChangedEvent, RegressionResultEvent, RunOptions, RunStatus, SignalEvent, UnprovenWhy } from './events.js';

/** A verdict of the journal debussy cannot prove it wrote (journal-seal.ts): noted, not believed. */
export interface UnprovenRecord {
  type: 'phase_ended' | 'gate_result' | 'baseline_result';
  phaseId: string;
  /** phase_ended: the status it claims (completed). */
  status?: string;
  /** gate_result / baseline_result: the gate it names. */
  gate?: string;
  ts: string;
  why: UnprovenWhy;
}

export interface SessionSummary {
  attemptId: string;
  sessionIndex: number;
  outcome?: string;
  peakContextPercent: number;
  peakContextTokens: number;
  contextWindow: number;
  /** The session's effective context limit and where it came from (context_threshold or max_context_tokens). */
  contextLimitTokens?: number;
  contextLimitSource?: string;
  toolCalls: number;
  costUsd: number;
  /** claude reported no cost for this session (no result line): costUsd is 0, not its cost. */
  costUnknown?: boolean;
  /** costUsd is debussy's estimate from the session's tokens (docs/budgets.md). */
  costEstimated?: boolean;
  inputTokens: number;
  outputTokens: number;
  durationMs?: number;
  agentPid?: number;
  agentStartTime?: number;
  /** The session's DEBUSSY_SESSION_MARKER value, to find its processes after a crash. */
  marker?: string;
  /** The session's raw stream log (from session_started). */
  streamLogPath?: string;
  sessionId?: string;
  ended: boolean;
  errorClass?: string;
  /** Its logs that could not be written whole (session_ended), and why. */
  incompleteLogs?: { path: string; error: string }[];
}

export interface PhaseState {
  id: string;
  title: string;
  status: PhaseStatus | 'pending';
  /** Attempts started in this run. */
  attempts: number;
  /** Highest restart count seen (carried over from the attempt events on a resume). */
  restarts: number;
  /** Highest retry count seen. */
  retries: number;
  currentAttemptId?: string;
  sessions: SessionSummary[];
  commits: { sha: string; message: string; purpose: string }[];
  /** Progress the agent recorded, with what an interrupted run this one continues recorded first. */
  progress: { message: string; ts: string; attemptId?: string }[];
  /** The last steps of the phase's latest ended session (from an earlier run on a resume). */
  lastActivity: string[];
  /** Every signal for the phase, current attempt or not: see `signalForAttempt`. */
  signals: SignalEvent[];
  gates: GateResultEvent[];
  /** The gates' verdict before the phase's first session, one per gate (baseline_result; latest wins). */
  baseline?: BaselineResultEvent[];
  /**
   * The journal's last word on the phase is a completion debussy cannot prove it recorded
   * (journal-seal.ts): the phase keeps the status debussy did record, and the next run verifies it
   * by its gates before it counts as done.
   */
  unprovenCompletion?: { ts: string; why: UnprovenWhy };
  /** --parallel: the phase's worktree and branch, and whether the branch is merged into the run's (phase_branch). */
  branch?: { name: string; worktree: string; merged: boolean };
  /** HEAD when the phase first started (from phase_started). */
  baseSha?: string;
  /** The user's changes the phase's commits leave alone (the latest user_changes event). */
  userChanges?: UserChange[];
  /** What the phase left uncommitted when the run stopped gracefully (uncommitted_at_stop). */
  uncommittedAtStop?: FileState[];
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
  reason?: string;
  peakContextPercent: number;
  costUsd: number;
  /** Sessions of the phase whose cost claude did not report: costUsd is then a lower bound. */
  sessionsWithoutCost: number;
  /** Of costUsd, what debussy estimated for sessions stopped before claude's result. */
  estimatedCostUsd?: number;
  /** What the phase spent in the interrupted runs this one continues (phase_resumed). */
  priorCostUsd?: number;
  inputTokens: number;
  outputTokens: number;
}

export interface RunState {
  runId: string;
  planPath: string;
  planName: string;
  /** `running` until run_ended; whether a running run is really interrupted needs the lock. */
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  exitCode?: number;
  reason?: string;
  resumedFrom?: string;
  options: RunOptions;
  phaseOrder: string[];
  phases: Record<string, PhaseState>;
  /** Notices, plus a warning for each failed commit. */
  notices: NoticeEvent[];
  lastEventAt: string;
  /** The plan as the run found it (run_started); absent in journals from before fingerprints. */
  planFingerprint?: PlanFingerprint;
  /** What changed in the plan since the run before (plan_changed). */
  planChanged?: PlanChangedEvent;
  /** Earlier phases' gates run again (regression_result), in order. */
  regressions?: RegressionResultEvent[];
  /** The end-of-run check the run owes (regression_check): what it inherited, and whether its own ran to its end. */
  endCheck?: { phases: string[]; regressions: OwedRegression[]; finished: boolean };
  /** USD spent by the interrupted runs this one continues (run_started): max_cost counts it. */
  priorCostUsd?: number;
  priorCostEstimatedUsd?: number;
  /** max_cost / max_phase_cost in force (run_started). */
  budget?: { maxCostUsd?: number; maxPhaseCostUsd?: number };
  /** Verdicts of the journal debussy cannot prove it wrote, in order: shown by `status`, never believed. */
  unproven?: UnprovenRecord[];
  /** Set while debussy waits for a usage limit to reset (usage_limit started, until ended). */
  usageLimitWait?: { phaseId: string; kind: string; until: number };
}
