/**
 * The run journal's event vocabulary: one schema per event (valibot), and the TypeScript types
 * inferred from it. A writer's event is checked by the compiler; a line read back is checked
 * against the same schema (journal.ts), so the fold (fold.ts) takes events as typed. One NDJSON line
 * per event, appended and fsync'd; the state of a run is the fold of its events.
 *
 * Older journals keep reading: a field added since the first journal is optional, or has a default
 * that says what the older lines meant (`git log -p` of this file tells which came when).
 */
import * as v from 'valibot';
import type { ContextLimit } from '../context/context-limit.js';
import type { FileState, UserChange } from '../git/commit-scope.js';
import type { GateFingerprint, PhaseFingerprint, PlanFingerprint } from '../plan/fingerprint.js';
import type { PlanChange } from '../plan/plan-diff.js';
import type { PhaseStatus } from '../plan/types.js';

/**
 * The journal format's version, written on every line as `v`. Additions an older reader can skip
 * (a new event type, a new optional field) keep it; a change an older reader would misread raises
 * it. A reader takes lines up to its own version (a line without `v` predates versioning and reads
 * as version 1) and says what it cannot carry over from a newer one (journal-version.ts).
 */
export const JOURNAL_VERSION = 1;

const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted', 'blocked', 'aborted'] as const;
const SIGNAL_STATUSES = ['completed', 'blocked', 'failed'] as const;
const ATTEMPT_KINDS = ['initial', 'restart', 'retry', 'remediation', 'resume', 'continue'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type SignalStatus = (typeof SIGNAL_STATUSES)[number];
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];

// Shapes other modules own, as the journal holds them: each schema must yield the owner's type.
const phaseStatus: v.GenericSchema<PhaseStatus> = v.picklist(['pending', 'in_progress', 'completed', 'failed', 'blocked', 'skipped']);
const userChange: v.GenericSchema<UserChange> = v.object({ path: v.string(), origin: v.picklist(['untracked_before_phase', 'modified_before_phase', 'changed_between_runs']) });
const fileState: v.GenericSchema<FileState> = v.object({ path: v.string(), hash: v.nullable(v.string()) });
const contextLimit: v.GenericSchema<ContextLimit> = v.object({ tokens: v.number(), source: v.picklist(['context_threshold', 'max_context_tokens']) });
/** commandHash: absent in journals from before it (plan/fingerprint.ts). */
const gateFingerprint: v.GenericSchema<GateFingerprint> = v.object({ name: v.string(), command: v.string(), commandHash: v.optional(v.string()) });
const phaseFingerprint: v.GenericSchema<PhaseFingerprint> = v.object({
  id: v.string(), title: v.string(), file: v.string(), fileHash: v.nullable(v.string()), gates: v.array(gateFingerprint), dependsOn: v.array(v.string()),
});
const planFingerprint: v.GenericSchema<PlanFingerprint> = v.object({ masterHash: v.string(), phases: v.array(phaseFingerprint) });
const planChange: v.GenericSchema<PlanChange> = v.variant('kind', [
  v.object({ kind: v.picklist(['added', 'removed']), id: v.string(), title: v.string() }),
  v.object({ kind: v.literal('renumbered'), from: v.string(), id: v.string(), title: v.string() }),
  v.object({ kind: v.literal('renamed'), id: v.string(), from: v.string(), to: v.string() }),
  v.object({
    kind: v.literal('gates_changed'), id: v.string(), added: v.array(gateFingerprint), removed: v.array(gateFingerprint),
    changed: v.array(v.object({ name: v.string(), from: v.string(), to: v.string() })),
  }),
  v.object({ kind: v.literal('dependencies_changed'), id: v.string(), from: v.array(v.string()), to: v.array(v.string()) }),
  v.object({ kind: v.literal('file_changed'), id: v.string(), file: v.string() }),
  v.object({ kind: v.literal('master_changed') }),
]);

const optionalString = v.optional(v.string());
const optionalNumber = v.optional(v.number());
const optionalBoolean = v.optional(v.boolean());
const strings = v.array(v.string());

/** What the journal stamps on every line (journal.ts), and on the records debussy's run writes, their place and seal (journal-seal.ts). */
const stamped = {
  /** A line without it predates versioning: version 1. */
  v: v.optional(v.number(), 1),
  /** ISO time the event was written. */
  ts: v.string(),
  /** Process that wrote it. */
  pid: v.number(),
  seq: optionalNumber,
  mac: optionalString,
};
const ofPhase = { ...stamped, phaseId: v.string() };

/** The resolved options a run records when it starts (each may be missing: older runs). */
const runOptions = v.object({
  context_threshold: optionalNumber,
  max_restarts: optionalNumber,
  max_retries: optionalNumber,
  tool_call_threshold: optionalNumber,
  /** `--only`: the one phase this run was asked to run. */
  only: optionalString,
  /** `--phase`: the phase this run was asked to start at. */
  startAt: optionalString,
});
export type RunOptions = v.InferOutput<typeof runOptions>;

const runStarted = v.object({
  type: v.literal('run_started'),
  ...stamped,
  runId: v.string(),
  planPath: v.string(),
  planName: v.string(),
  phaseIds: strings,
  /** Resolved options that matter for a resume and the live view (thresholds, limits). */
  options: runOptions,
  /** Set when this run continues an interrupted one. */
  resumedFrom: optionalString,
  /** The plan as this run found it: a later run compares it with the plan then (plan/fingerprint.ts). */
  planFingerprint: v.optional(planFingerprint),
  /** USD spent by the interrupted runs this one continues (their sessions, estimates included): max_cost counts it. */
  priorCostUsd: optionalNumber,
  /** Of priorCostUsd, what was estimated (sessions stopped before claude's result). */
  priorCostEstimatedUsd: optionalNumber,
  /** max_cost / max_phase_cost in force, USD (docs/budgets.md). */
  budget: v.optional(v.object({ maxCostUsd: optionalNumber, maxPhaseCostUsd: optionalNumber })),
});
export type RunStartedEvent = v.InferOutput<typeof runStarted>;

const runEnded = v.object({ type: v.literal('run_ended'), ...stamped, status: v.picklist(RUN_STATUSES), exitCode: v.number(), reason: optionalString });
export type RunEndedEvent = v.InferOutput<typeof runEnded>;

const phaseStarted = v.object({
  type: v.literal('phase_started'),
  ...ofPhase,
  title: v.string(),
  /** HEAD when the phase first started: the phase's work is everything since. Carried on a resume. */
  baseSha: optionalString,
});
export type PhaseStartedEvent = v.InferOutput<typeof phaseStarted>;

/**
 * --parallel: where a phase runs (its own worktree and branch), and what became of the merge of
 * that branch into the run's branch. A resume finds an interrupted phase's worktree here.
 */
const phaseBranch = v.object({
  type: v.literal('phase_branch'),
  ...ofPhase,
  /** worktree: made (or found again); merged: in the run's branch; conflict: a merge remediation starts; merge_failed: the run stops. */
  stage: v.picklist(['worktree', 'merged', 'conflict', 'merge_failed']),
  branch: v.string(),
  worktree: v.string(),
  /** conflict, merge_failed: the files that conflicted (or the gates the merge broke). */
  files: v.optional(strings),
  reason: optionalString,
});
export type PhaseBranchEvent = v.InferOutput<typeof phaseBranch>;

/**
 * --queue: a phase run as a job on a queue worker. queued: the job is on the queue; ended: the
 * worker's result (its phase branch's head and what its sessions spent, which the run counts).
 */
const phaseJob = v.object({
  type: v.literal('phase_job'),
  ...ofPhase,
  jobId: v.string(),
  stage: v.picklist(['queued', 'ended']),
  /** ended: the worker (host:pid), how its run ended, the branch head it pushed, and its spend. */
  worker: optionalString,
  status: optionalString,
  commitSha: optionalString,
  costUsd: optionalNumber,
});
export type PhaseJobEvent = v.InferOutput<typeof phaseJob>;

const phaseEnded = v.object({ type: v.literal('phase_ended'), ...ofPhase, status: phaseStatus, reason: optionalString });
export type PhaseEndedEvent = v.InferOutput<typeof phaseEnded>;

const attemptStarted = v.object({
  type: v.literal('attempt_started'),
  ...ofPhase,
  /** Unique id; given to the agent so its completion signal is tied to this attempt. */
  attemptId: v.string(),
  kind: v.picklist(ATTEMPT_KINDS),
  /** 0-based restart count within the phase at this attempt. */
  restart: v.number(),
  /** 0-based retry count within the phase at this attempt. */
  retry: v.number(),
});
export type AttemptStartedEvent = v.InferOutput<typeof attemptStarted>;

const sessionStarted = v.object({
  type: v.literal('session_started'),
  ...ofPhase,
  attemptId: v.string(),
  sessionIndex: v.number(),
  agentPid: v.number(),
  /** The agent CLI (agent/agent-driver.ts AgentName); journals before it ran claude. */
  agent: optionalString,
  /** Process start time (clock ticks since boot) so a recycled PID is never taken for ours. */
  agentStartTime: optionalNumber,
  /**
   * Random value put in the agent's environment (DEBUSSY_SESSION_MARKER), so the session's tool
   * processes can be found and ended after debussy itself was killed.
   */
  marker: optionalString,
  model: optionalString,
  promptChars: v.number(),
  logPath: optionalString,
  /** The raw stream log: what the session did can be read back from it after debussy was killed. */
  streamLogPath: optionalString,
});
export type SessionStartedEvent = v.InferOutput<typeof sessionStarted>;

const sessionEnded = v.object({
  type: v.literal('session_ended'),
  ...ofPhase,
  attemptId: v.string(),
  sessionIndex: v.number(),
  /** How the session ended, e.g. `completed`, `stopped`, `api_error`, `crashed`. */
  outcome: v.string(),
  exitCode: v.nullable(v.number()),
  signal: v.nullable(v.string()),
  sessionId: optionalString,
  peakContextTokens: v.number(),
  peakContextPercent: v.number(),
  contextWindow: v.number(),
  /** Where the session was to be stopped: the lower of context_threshold x window and max_context_tokens. */
  contextLimitTokens: optionalNumber,
  contextLimitSource: v.optional(v.picklist(['context_threshold', 'max_context_tokens'])),
  toolCalls: v.number(),
  costUsd: v.number(),
  inputTokens: v.number(),
  outputTokens: v.number(),
  /** The session printed no result (it was stopped or crashed): claude reported no cost for it. Older journals. */
  costUnknown: optionalBoolean,
  /** costUsd is debussy's estimate from the session's tokens and the price table (no result from claude). */
  costEstimated: optionalBoolean,
  durationMs: v.number(),
  errorClass: optionalString,
  message: optionalString,
  /** The session's last few steps (condensed tool calls and text): a later checkpoint shows them. */
  lastActivity: v.optional(strings),
  /** Its logs that could not be written whole (a full disk), relative to the project root, and why. */
  incompleteLogs: v.optional(v.array(v.object({ path: v.string(), error: v.string() }))),
});
export type SessionEndedEvent = v.InferOutput<typeof sessionEnded>;

/**
 * A phase this run continues from an interrupted run: what that run (and any it continued) knew
 * that the journal of this run would otherwise lack. Folded in as if recorded here, so a resume of
 * this run carries it on too.
 */
const phaseResumed = v.object({
  type: v.literal('phase_resumed'),
  ...ofPhase,
  fromRunId: v.string(),
  progress: v.array(v.object({ message: v.string(), ts: v.string(), attemptId: optionalString })),
  lastActivity: strings,
  /** What the phase spent in the runs before (max_phase_cost counts it). */
  priorCostUsd: optionalNumber,
});
export type PhaseResumedEvent = v.InferOutput<typeof phaseResumed>;

/**
 * The context monitor's crossing as it reported it (context/context-figures.ts CrossingFigures):
 * the figures, the limit and the threshold crossed. Older journals wrote contextWindow 0 for an
 * unknown window and no limit.
 */
const contextCrossed = v.object({
  type: v.literal('context_crossed'),
  ...ofPhase,
  sessionIndex: v.number(),
  trigger: v.picklist(['context', 'tool_calls']),
  threshold: v.number(),
  usedTokens: v.number(),
  contextWindow: optionalNumber,
  percent: v.number(),
  toolCalls: v.number(),
  limit: v.optional(contextLimit),
  /** The rest of the monitor's snapshot at the crossing (context-monitor.ts ContextSnapshot); older journals lack them. */
  reportedTokens: optionalNumber,
  projectedExtraTokens: optionalNumber,
  peakTokens: optionalNumber,
  peakPercent: optionalNumber,
  turns: optionalNumber,
  /** False in one-shot mode: the crossing is reported, the session runs on. */
  stopping: v.boolean(),
});
export type ContextCrossedEvent = v.InferOutput<typeof contextCrossed>;

/** claude compacted a session's context by itself (its PreCompact hook did not stop it). */
const compaction = v.object({
  type: v.literal('compaction'),
  ...ofPhase,
  sessionIndex: v.number(),
  preTokens: optionalNumber,
  postTokens: optionalNumber,
  /** False in one-shot mode: the compaction is reported, the session runs on. */
  stopping: v.boolean(),
});
export type CompactionEvent = v.InferOutput<typeof compaction>;

const stopRequested = v.object({ type: v.literal('stop_requested'), ...ofPhase, sessionIndex: v.number(), reason: v.string() });
export type StopRequestedEvent = v.InferOutput<typeof stopRequested>;

const commit = v.object({
  type: v.literal('commit'),
  ...ofPhase,
  sha: v.string(),
  message: v.string(),
  files: v.number(),
  purpose: v.picklist(['checkpoint', 'phase_completed', 'phase_failed', 'interrupted']),
});
export type CommitEvent = v.InferOutput<typeof commit>;

const commitFailed = v.object({ type: v.literal('commit_failed'), ...ofPhase, message: v.string() });
export type CommitFailedEvent = v.InferOutput<typeof commitFailed>;

/**
 * The changes in the working tree that are the user's, which the phase's commits leave alone:
 * recorded when the phase first starts (before the agent runs) and again, extended, on a resume.
 */
const userChanges = v.object({ type: v.literal('user_changes'), ...ofPhase, changes: v.array(userChange) });
export type UserChangesEvent = v.InferOutput<typeof userChanges>;

/**
 * What a gracefully stopped phase left uncommitted (and its content), so a resume can tell later
 * edits apart. `files` is missing from the first journals (they held `paths`, without content): a
 * resume then knows nothing of the stop.
 */
const uncommittedAtStop = v.object({ type: v.literal('uncommitted_at_stop'), ...ofPhase, files: v.optional(v.array(fileState)) });
export type UncommittedAtStopEvent = v.InferOutput<typeof uncommittedAtStop>;

const restart = v.object({
  type: v.literal('restart'),
  ...ofPhase,
  /** 1-based number of this restart. */
  restart: v.number(),
  maxRestarts: v.number(),
  reason: v.string(),
  checkpointChars: v.number(),
});
export type RestartEvent = v.InferOutput<typeof restart>;

const signal = v.object({
  type: v.literal('signal'),
  ...ofPhase,
  status: v.picklist(SIGNAL_STATUSES),
  /** The attempt the agent was running, from DEBUSSY_ATTEMPT_ID; absent for manual signals. */
  attemptId: optionalString,
  reason: optionalString,
  report: v.optional(v.unknown()),
});
export type SignalEvent = v.InferOutput<typeof signal>;

const progress = v.object({ type: v.literal('progress'), ...ofPhase, message: v.string(), attemptId: optionalString });
export type ProgressEvent = v.InferOutput<typeof progress>;

/** One run of a gate, as every gate event records it (the verdict of a command, its exit and its output's tail). */
const gateRun = {
  name: v.string(),
  command: v.string(),
  passed: v.boolean(),
  exitCode: v.nullable(v.number()),
  durationMs: v.number(),
  outputTail: v.string(),
  /** A failed gate (gate_result, baseline_result): what its output said failed, test names or error lines (verification/failure-lines.ts). */
  failures: v.optional(v.object({ by: v.picklist(['tests', 'lines']), items: strings })),
};
export type GateRunFields = v.InferOutput<v.ObjectSchema<typeof gateRun, undefined>>;

const gateResult = v.object({
  type: v.literal('gate_result'),
  ...ofPhase,
  ...gateRun,
  attemptId: optionalString,
  /** A failed gate that failed before the phase's first session too, with the same failures (verification/baseline.ts). */
  inherited: optionalBoolean,
});
export type GateResultEvent = v.InferOutput<typeof gateResult>;

/** A phase's gate run before its first session (`baseline_gates`), or to verify a completed phase again after its plan changed. */
const baselineResult = v.object({
  type: v.literal('baseline_result'),
  ...ofPhase,
  ...gateRun,
  /** Run to verify again a completed phase whose file or gates changed (not a baseline of new work). */
  reverify: optionalBoolean,
  /** Recorded by an interrupted run this one continues. */
  fromRunId: optionalString,
});
export type BaselineResultEvent = v.InferOutput<typeof baselineResult>;

/** An earlier phase's gate run again (`regression_gates`): after `afterPhaseId` completed (each), or at the end of the run. The phase is the gate's. */
const regressionResult = v.object({
  type: v.literal('regression_result'),
  ...ofPhase,
  ...gateRun,
  mode: v.picklist(['each', 'end']),
  /** each: the phase just verified, whose work is checked against the earlier gate. */
  afterPhaseId: optionalString,
  /** end, failed: the phases completed since the gate's phase, one of which broke it. */
  suspects: v.optional(strings),
});
export type RegressionResultEvent = v.InferOutput<typeof regressionResult>;

/** A gate found failing at the end of a run, as the next check needs it. */
const owedRegression = v.object({ phaseId: v.string(), name: v.string(), suspects: strings });
export type OwedRegression = v.InferOutput<typeof owedRegression>;

/**
 * The end-of-run regression check (regression_gates: end) a run owes. `pending`, when the run
 * starts owing one it inherits from the run it continues: the phases completed since the last
 * check that ran to its end, and the regressions found and not yet seen fixed. `finished`, once the
 * run owes none: its own check ran to its end, or it completed without needing one. A check cut
 * short (Ctrl-C, kill -9) is owed by the next run (orchestrator/owed-end-check.ts).
 */
const regressionCheck = v.object({
  type: v.literal('regression_check'),
  ...stamped,
  stage: v.picklist(['pending', 'finished']),
  /** pending: the phases completed and not yet checked, in the order they completed. */
  phases: v.optional(strings),
  /** pending: each gate found failing at a run's end, with the phases suspected of breaking it. */
  regressions: v.optional(v.array(owedRegression)),
});
export type RegressionCheckEvent = v.InferOutput<typeof regressionCheck>;

/** The plan changed since the run before this one: what changed and which completed phases run their gates again. */
const planChanged = v.object({
  type: v.literal('plan_changed'),
  ...stamped,
  /** The run whose recorded fingerprint the plan was compared with. */
  sinceRunId: v.string(),
  changes: v.array(planChange),
  /** Completed phases verified again before they count as done. */
  reverify: strings,
  /** Changed completed phases kept as done (--trust-completed); the first journals said only `trusted`. */
  kept: v.optional(strings, []),
});
export type PlanChangedEvent = v.InferOutput<typeof planChanged>;

const notice = v.object({ type: v.literal('notice'), ...stamped, level: v.picklist(['info', 'warning', 'error']), message: v.string(), phaseId: optionalString });
export type NoticeEvent = v.InferOutput<typeof notice>;

/** A failed session, how it was classified, and what recovery decided. */
const recovery = v.object({
  type: v.literal('recovery'),
  ...ofPhase,
  failureClass: v.string(),
  severity: v.string(),
  message: v.string(),
  correlationKey: v.string(),
  /** resume, switch_model, fresh_session, condensed_session, skip_phase, abort. */
  action: v.string(),
  reason: v.string(),
  delayMs: optionalNumber,
  model: optionalString,
  /** Condensed checkpoints: level 1-3 and the sizes before and after. */
  condenseLevel: optionalNumber,
  checkpointCharsBefore: optionalNumber,
  checkpointCharsAfter: optionalNumber,
  /** Circuit breaker and crash-loop state after this failure, kept across resume (their readers check them). */
  circuit: v.optional(v.unknown()),
  crashLoop: v.optional(v.unknown()),
});
export type RecoveryEvent = v.InferOutput<typeof recovery>;

/** A budget (max_cost or max_phase_cost) reached: the session is stopped or none starts (docs/budgets.md). */
const budgetReached = v.object({
  type: v.literal('budget_reached'),
  ...ofPhase,
  scope: v.picklist(['run', 'phase']),
  limitUsd: v.number(),
  /** Spent at the decision, the running session's estimate included. */
  spentUsd: v.number(),
  /** Whether spentUsd holds estimates. */
  estimated: v.boolean(),
});
export type BudgetReachedEvent = v.InferOutput<typeof budgetReached>;

/** A usage limit: debussy waits for its reset (stage started, then ended) or ends the run (stage beyond_max_wait). */
const usageLimit = v.object({
  type: v.literal('usage_limit'),
  ...ofPhase,
  stage: v.picklist(['started', 'ended', 'beyond_max_wait']),
  /** five_hour, seven_day, ... (claude's rateLimitType) or what the text named. */
  kind: v.string(),
  source: v.picklist(['rate_limit_event', 'text']),
  /** Epoch ms of the reset, when known. */
  resetAt: optionalNumber,
  /** Epoch ms debussy waits until (started). */
  until: optionalNumber,
  /** How long the wait lasted (ended). */
  waitedMs: optionalNumber,
});
export type UsageLimitEvent = v.InferOutput<typeof usageLimit>;

/** A checkpoint condensed for a session after a context overflow. */
const checkpointCondensed = v.object({ type: v.literal('checkpoint_condensed'), ...ofPhase, level: v.number(), beforeChars: v.number(), afterChars: v.number() });
export type CheckpointCondensedEvent = v.InferOutput<typeof checkpointCondensed>;

/**
 * Every event debussy writes, by type: what a journal line of that type must hold. An `unproven`
 * record is the reader's own (below), never taken from a line: its type is not here.
 */
export const JOURNAL_EVENT_SCHEMAS = {
  run_started: runStarted,
  run_ended: runEnded,
  phase_started: phaseStarted,
  phase_ended: phaseEnded,
  phase_branch: phaseBranch,
  phase_job: phaseJob,
  phase_resumed: phaseResumed,
  attempt_started: attemptStarted,
  session_started: sessionStarted,
  session_ended: sessionEnded,
  context_crossed: contextCrossed,
  compaction,
  stop_requested: stopRequested,
  commit,
  commit_failed: commitFailed,
  user_changes: userChanges,
  uncommitted_at_stop: uncommittedAtStop,
  restart,
  signal,
  progress,
  gate_result: gateResult,
  baseline_result: baselineResult,
  regression_result: regressionResult,
  regression_check: regressionCheck,
  plan_changed: planChanged,
  notice,
  recovery,
  checkpoint_condensed: checkpointCondensed,
  budget_reached: budgetReached,
  usage_limit: usageLimit,
} as const;

/** An event as a journal line holds it. */
export type WrittenJournalEvent = v.InferOutput<(typeof JOURNAL_EVENT_SCHEMAS)[keyof typeof JOURNAL_EVENT_SCHEMAS]>;

/** Why a verdict is not believed (journal-seal.ts): no seal, a seal that does not match, a repeat, no key to check with, or (a mark) no verification. */
export type UnprovenWhy = 'unsealed' | 'bad_seal' | 'replayed' | 'no_key' | 'not_verified';

/**
 * Never written: what the reader puts in place of a verdict (a phase's completion, a gate's verdict,
 * a baseline) whose seal does not check, so the fold notes it without believing it.
 */
export type UnprovenRecordEvent = Pick<WrittenJournalEvent, 'v' | 'ts' | 'pid'> & {
  type: 'unproven';
  record: (PhaseEndedEvent & { status: 'completed' }) | GateResultEvent | BaselineResultEvent;
  why: UnprovenWhy;
};

export type JournalEvent = WrittenJournalEvent | UnprovenRecordEvent;
export type JournalEventType = JournalEvent['type'];

/** An event as passed to `append`: the journal fills in v, ts and pid (and a run its seal). */
export type NewJournalEvent = WrittenJournalEvent extends infer E ? (E extends WrittenJournalEvent ? Omit<E, 'v' | 'ts' | 'pid' | 'seq' | 'mac'> : never) : never;

/** Why a line does not fit its schema, for a bad line: its first field that does not, and how. */
export function misfitOf(issues: readonly [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): string {
  const field = v.getDotPath(issues[0]);
  return `${field === null ? '' : `${field}: `}${issues[0].message}`;
}
