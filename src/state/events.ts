/**
 * The run journal's event vocabulary. One NDJSON line per event, appended and fsync'd; the state of
 * a run is the fold of its events (see fold.ts). Fields are optional on the wire: readers narrow
 * with `isJournalEvent` and tolerate what they do not know.
 */
import type { CrossingFigures } from '../context/context-figures.js';
import type { FileState, UserChange } from '../git/commit-scope.js';
import type { PlanFingerprint } from '../plan/fingerprint.js';
import type { PlanChange } from '../plan/plan-diff.js';
import type { PhaseStatus } from '../plan/types.js';

/**
 * The journal format's version, written on every line as `v`. Additions an older reader can skip
 * (a new event type, a new optional field) keep it; a change an older reader would misread raises
 * it. A reader takes lines up to its own version (a line without `v` predates versioning and reads
 * as version 1) and says what it cannot carry over from a newer one (journal-version.ts).
 */
export const JOURNAL_VERSION = 1;

export type RunStatus = 'running' | 'completed' | 'failed' | 'interrupted' | 'blocked' | 'aborted';
export type SignalStatus = 'completed' | 'blocked' | 'failed';
export type AttemptKind = 'initial' | 'restart' | 'retry' | 'remediation' | 'resume' | 'continue';

interface Base {
  v: number;
  /** ISO time the event was written. */
  ts: string;
  /** Process that wrote it. */
  pid: number;
  /** On records debussy's run writes: the record's place among them, and its seal (journal-seal.ts). */
  seq?: number;
  mac?: string;
}

/**
 * The resolved options a run records when it starts. Each may be missing from a journal (older
 * runs, a hand-edited line): readers narrow with fold.ts `runOptionsOf`.
 */
export interface RunOptions {
  context_threshold?: number;
  max_restarts?: number;
  max_retries?: number;
  tool_call_threshold?: number;
  /** `--only`: the one phase this run was asked to run. */
  only?: string;
  /** `--phase`: the phase this run was asked to start at. */
  startAt?: string;
}

export interface RunStartedEvent extends Base {
  type: 'run_started';
  runId: string;
  planPath: string;
  planName: string;
  phaseIds: string[];
  /** Resolved options that matter for a resume and the live view (thresholds, limits). */
  options: RunOptions;
  /** Set when this run continues an interrupted one. */
  resumedFrom?: string;
  /** The plan as this run found it: a later run compares it with the plan then (plan/fingerprint.ts). */
  planFingerprint?: PlanFingerprint;
  /** USD spent by the interrupted runs this one continues (their sessions, estimates included): max_cost counts it. */
  priorCostUsd?: number;
  /** Of priorCostUsd, what was estimated (sessions stopped before claude's result). */
  priorCostEstimatedUsd?: number;
  /** max_cost / max_phase_cost in force, USD (docs/budgets.md). */
  budget?: { maxCostUsd?: number; maxPhaseCostUsd?: number };
}

export interface RunEndedEvent extends Base {
  type: 'run_ended';
  status: RunStatus;
  exitCode: number;
  reason?: string;
}

export interface PhaseStartedEvent extends Base {
  type: 'phase_started';
  phaseId: string;
  title: string;
  /** HEAD when the phase first started: the phase's work is everything since. Carried on a resume. */
  baseSha?: string;
}

/**
 * --parallel: where a phase runs (its own worktree and branch), and what became of the merge of
 * that branch into the run's branch. A resume finds an interrupted phase's worktree here.
 */
export interface PhaseBranchEvent extends Base {
  type: 'phase_branch';
  phaseId: string;
  /** worktree: made (or found again); merged: in the run's branch; conflict: a merge remediation starts; merge_failed: the run stops. */
  stage: 'worktree' | 'merged' | 'conflict' | 'merge_failed';
  branch: string;
  worktree: string;
  /** conflict, merge_failed: the files that conflicted (or the gates the merge broke). */
  files?: string[];
  reason?: string;
}

/**
 * --queue: a phase run as a job on a queue worker. queued: the job is on the queue; ended: the
 * worker's result (its phase branch's head and what its sessions spent, which the run counts).
 */
export interface PhaseJobEvent extends Base {
  type: 'phase_job';
  phaseId: string;
  jobId: string;
  stage: 'queued' | 'ended';
  /** ended: the worker (host:pid), how its run ended, the branch head it pushed, and its spend. */
  worker?: string;
  status?: string;
  commitSha?: string;
  costUsd?: number;
}

export interface PhaseEndedEvent extends Base {
  type: 'phase_ended';
  phaseId: string;
  status: PhaseStatus;
  reason?: string;
}

export interface AttemptStartedEvent extends Base {
  type: 'attempt_started';
  phaseId: string;
  /** Unique id; given to the agent so its completion signal is tied to this attempt. */
  attemptId: string;
  kind: AttemptKind;
  /** 0-based restart count within the phase at this attempt. */
  restart: number;
  /** 0-based retry count within the phase at this attempt. */
  retry: number;
}

export interface SessionStartedEvent extends Base {
  type: 'session_started';
  phaseId: string;
  attemptId: string;
  sessionIndex: number;
  agentPid: number;
  /** The agent CLI (agent/agent-driver.ts AgentName); journals before it ran claude. */
  agent?: string;
  /** Process start time (clock ticks since boot) so a recycled PID is never taken for ours. */
  agentStartTime?: number;
  /**
   * Random value put in the agent's environment (DEBUSSY_SESSION_MARKER), so the session's tool
   * processes can be found and ended after debussy itself was killed.
   */
  marker?: string;
  model?: string;
  promptChars: number;
  logPath?: string;
  /** The raw stream log: what the session did can be read back from it after debussy was killed. */
  streamLogPath?: string;
}

export interface SessionEndedEvent extends Base {
  type: 'session_ended';
  phaseId: string;
  attemptId: string;
  sessionIndex: number;
  /** How the session ended, e.g. `completed`, `stopped`, `api_error`, `crashed`. */
  outcome: string;
  exitCode: number | null;
  signal: string | null;
  sessionId?: string;
  peakContextTokens: number;
  peakContextPercent: number;
  contextWindow: number;
  /** Where the session was to be stopped: the lower of context_threshold x window and max_context_tokens. */
  contextLimitTokens?: number;
  contextLimitSource?: 'context_threshold' | 'max_context_tokens';
  toolCalls: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  /** The session printed no result (it was stopped or crashed): claude reported no cost for it. */
  costUnknown?: boolean;
  /** costUsd is debussy's estimate from the session's tokens and the price table (no result from claude). */
  costEstimated?: boolean;
  durationMs: number;
  errorClass?: string;
  message?: string;
  /** The session's last few steps (condensed tool calls and text): a later checkpoint shows them. */
  lastActivity?: string[];
  /** Its logs that could not be written whole (a full disk), relative to the project root, and why. */
  incompleteLogs?: { path: string; error: string }[];
}

/**
 * A phase this run continues from an interrupted run: what that run (and any it continued) knew
 * that the journal of this run would otherwise lack. Folded in as if recorded here, so a resume of
 * this run carries it on too.
 */
export interface PhaseResumedEvent extends Base {
  type: 'phase_resumed';
  phaseId: string;
  fromRunId: string;
  progress: { message: string; ts: string; attemptId?: string }[];
  lastActivity: string[];
  /** What the phase spent in the runs before (max_phase_cost counts it). */
  priorCostUsd?: number;
}

/**
 * The context monitor's crossing as it reported it (context-figures.ts): the figures, the limit and
 * the threshold crossed. Older journals wrote contextWindow 0 for an unknown window and no limit.
 */
export interface ContextCrossedEvent extends Base, CrossingFigures {
  type: 'context_crossed';
  phaseId: string;
  sessionIndex: number;
  /** False in one-shot mode: the crossing is reported, the session runs on. */
  stopping: boolean;
}

/** claude compacted a session's context by itself (its PreCompact hook did not stop it). */
export interface CompactionEvent extends Base {
  type: 'compaction';
  phaseId: string;
  sessionIndex: number;
  preTokens?: number;
  postTokens?: number;
  /** False in one-shot mode: the compaction is reported, the session runs on. */
  stopping: boolean;
}

export interface StopRequestedEvent extends Base {
  type: 'stop_requested';
  phaseId: string;
  sessionIndex: number;
  reason: string;
}

export interface CommitEvent extends Base {
  type: 'commit';
  phaseId: string;
  sha: string;
  message: string;
  files: number;
  purpose: 'checkpoint' | 'phase_completed' | 'phase_failed' | 'interrupted';
}

export interface CommitFailedEvent extends Base {
  type: 'commit_failed';
  phaseId: string;
  message: string;
}

/**
 * The changes in the working tree that are the user's, which the phase's commits leave alone:
 * recorded when the phase first starts (before the agent runs) and again, extended, on a resume.
 */
export interface UserChangesEvent extends Base {
  type: 'user_changes';
  phaseId: string;
  changes: UserChange[];
}

/** What a gracefully stopped phase left uncommitted (and its content), so a resume can tell later edits apart. */
export interface UncommittedAtStopEvent extends Base {
  type: 'uncommitted_at_stop';
  phaseId: string;
  files: FileState[];
}

export interface RestartEvent extends Base {
  type: 'restart';
  phaseId: string;
  /** 1-based number of this restart. */
  restart: number;
  maxRestarts: number;
  reason: string;
  checkpointChars: number;
}

export interface SignalEvent extends Base {
  type: 'signal';
  phaseId: string;
  status: SignalStatus;
  /** The attempt the agent was running, from DEBUSSY_ATTEMPT_ID; absent for manual signals. */
  attemptId?: string;
  reason?: string;
  report?: unknown;
}

export interface ProgressEvent extends Base {
  type: 'progress';
  phaseId: string;
  message: string;
  attemptId?: string;
}

/** One run of a gate, as every gate event records it (the verdict of a command, its exit and its output's tail). */
export interface GateRunFields {
  name: string;
  command: string;
  passed: boolean;
  exitCode: number | null;
  durationMs: number;
  outputTail: string;
  /** A failed gate (gate_result, baseline_result): what its output said failed, test names or error lines (verification/failure-lines.ts). */
  failures?: { by: 'tests' | 'lines'; items: string[] };
}

export interface GateResultEvent extends Base, GateRunFields {
  type: 'gate_result';
  phaseId: string;
  attemptId?: string;
  /** A failed gate that failed before the phase's first session too, with the same failures (verification/baseline.ts). */
  inherited?: boolean;
}

/** A phase's gate run before its first session (`baseline_gates`), or to verify a completed phase again after its plan changed. */
export interface BaselineResultEvent extends Base, GateRunFields {
  type: 'baseline_result';
  phaseId: string;
  /** Run to verify again a completed phase whose file or gates changed (not a baseline of new work). */
  reverify?: boolean;
  /** Recorded by an interrupted run this one continues. */
  fromRunId?: string;
}

/** An earlier phase's gate run again (`regression_gates`): after `afterPhaseId` completed (each), or at the end of the run. */
export interface RegressionResultEvent extends Base, GateRunFields {
  type: 'regression_result';
  /** The phase the gate belongs to. */
  phaseId: string;
  mode: 'each' | 'end';
  /** each: the phase just verified, whose work is checked against the earlier gate. */
  afterPhaseId?: string;
  /** end, failed: the phases completed since the gate's phase, one of which broke it. */
  suspects?: string[];
}

/**
 * The end-of-run regression check (regression_gates: end) a run owes. `pending`, when the run
 * starts owing one it inherits from the run it continues: the phases completed since the last
 * check that ran to its end, and the regressions found and not yet seen fixed. `finished`, once the
 * run owes none: its own check ran to its end, or it completed without needing one. A check cut
 * short (Ctrl-C, kill -9) is owed by the next run (orchestrator/owed-end-check.ts).
 */
export interface RegressionCheckEvent extends Base {
  type: 'regression_check';
  stage: 'pending' | 'finished';
  /** pending: the phases completed and not yet checked, in the order they completed. */
  phases?: string[];
  /** pending: each gate found failing at a run's end, with the phases suspected of breaking it. */
  regressions?: OwedRegression[];
}

/** A gate found failing at the end of a run, as the next check needs it. */
export interface OwedRegression {
  phaseId: string;
  name: string;
  suspects: string[];
}

/** The plan changed since the run before this one: what changed and which completed phases run their gates again. */
export interface PlanChangedEvent extends Base {
  type: 'plan_changed';
  /** The run whose recorded fingerprint the plan was compared with. */
  sinceRunId: string;
  changes: PlanChange[];
  /** Completed phases verified again before they count as done. */
  reverify: string[];
  /** Changed completed phases kept as done (--trust-completed). */
  kept: string[];
}

export interface NoticeEvent extends Base {
  type: 'notice';
  level: 'info' | 'warning' | 'error';
  message: string;
  phaseId?: string;
}

/** A failed session, how it was classified, and what recovery decided. */
export interface RecoveryEvent extends Base {
  type: 'recovery';
  phaseId: string;
  failureClass: string;
  severity: string;
  message: string;
  correlationKey: string;
  /** resume, switch_model, fresh_session, condensed_session, skip_phase, abort. */
  action: string;
  reason: string;
  delayMs?: number;
  model?: string;
  /** Condensed checkpoints: level 1-3 and the sizes before and after. */
  condenseLevel?: number;
  checkpointCharsBefore?: number;
  checkpointCharsAfter?: number;
  /** Circuit breaker and crash-loop state after this failure, kept across resume. */
  circuit?: unknown;
  crashLoop?: unknown;
}

/** A budget (max_cost or max_phase_cost) reached: the session is stopped or none starts (docs/budgets.md). */
export interface BudgetReachedEvent extends Base {
  type: 'budget_reached';
  phaseId: string;
  scope: 'run' | 'phase';
  limitUsd: number;
  /** Spent at the decision, the running session's estimate included. */
  spentUsd: number;
  /** Whether spentUsd holds estimates. */
  estimated: boolean;
}

/** A usage limit: debussy waits for its reset (stage started, then ended) or ends the run (stage beyond_max_wait). */
export interface UsageLimitEvent extends Base {
  type: 'usage_limit';
  phaseId: string;
  stage: 'started' | 'ended' | 'beyond_max_wait';
  /** five_hour, seven_day, ... (claude's rateLimitType) or what the text named. */
  kind: string;
  source: 'rate_limit_event' | 'text';
  /** Epoch ms of the reset, when known. */
  resetAt?: number;
  /** Epoch ms debussy waits until (started). */
  until?: number;
  /** How long the wait lasted (ended). */
  waitedMs?: number;
}

/** A checkpoint condensed for a session after a context overflow. */
export interface CheckpointCondensedEvent extends Base {
  type: 'checkpoint_condensed';
  phaseId: string;
  level: number;
  beforeChars: number;
  afterChars: number;
}

/** Why a verdict is not believed (journal-seal.ts): no seal, a seal that does not match, a repeat, no key to check with, or (a mark) no verification. */
export type UnprovenWhy = 'unsealed' | 'bad_seal' | 'replayed' | 'no_key' | 'not_verified';

/**
 * Never written: what the reader puts in place of a verdict (a phase's completion, a gate's verdict,
 * a baseline) whose seal does not check, so the fold notes it without believing it.
 */
export interface UnprovenRecordEvent extends Base {
  type: 'unproven';
  record: (PhaseEndedEvent & { status: 'completed' }) | GateResultEvent | BaselineResultEvent;
  why: UnprovenWhy;
}

export type JournalEvent =
  | RunStartedEvent
  | RunEndedEvent
  | PhaseStartedEvent
  | PhaseEndedEvent
  | PhaseBranchEvent
  | PhaseJobEvent
  | PhaseResumedEvent
  | AttemptStartedEvent
  | SessionStartedEvent
  | SessionEndedEvent
  | ContextCrossedEvent
  | CompactionEvent
  | StopRequestedEvent
  | CommitEvent
  | CommitFailedEvent
  | UserChangesEvent
  | UncommittedAtStopEvent
  | RestartEvent
  | SignalEvent
  | ProgressEvent
  | GateResultEvent
  | BaselineResultEvent
  | RegressionResultEvent
  | RegressionCheckEvent
  | PlanChangedEvent
  | NoticeEvent
  | RecoveryEvent
  | CheckpointCondensedEvent
  | BudgetReachedEvent
  | UsageLimitEvent
  | UnprovenRecordEvent;

export type JournalEventType = JournalEvent['type'];

/** An event as passed to `append`: the journal fills in v, ts and pid (and a run its seal). */
type WrittenEvent = Exclude<JournalEvent, UnprovenRecordEvent>;
export type NewJournalEvent = WrittenEvent extends infer E ? (E extends WrittenEvent ? Omit<E, 'v' | 'ts' | 'pid' | 'seq' | 'mac'> : never) : never;

export function isJournalEvent(value: unknown): value is JournalEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    typeof (value as { ts?: unknown }).ts === 'string'
  );
}
