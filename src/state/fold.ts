/**
 * The state of a run, computed by folding its journal. Pure: the same events always give the same
 * state, nothing here touches the disk. Events come from a file other processes write, so fields
 * are checked before use and an event that does not fit is skipped rather than trusted.
 */
import type {
  AttemptStartedEvent,
  CommitEvent,
  ContextCrossedEvent,
  JournalEvent,
  OwedRegression,
  PhaseResumedEvent,
  RunOptions,
  RunStartedEvent,
  SessionEndedEvent,
  SessionStartedEvent,
  UnprovenRecordEvent,
} from './events.js';
import type { PhaseState, RunState, SessionSummary } from './run-state.js';
import type { FileState, UserChange, UserChangeOrigin } from '../git/commit-scope.js';
import { asPlanFingerprint } from './plan-fingerprint.js';

const isString = (value: unknown): value is string => typeof value === 'string';
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const optionalString = (value: unknown): string | undefined => (isString(value) ? value : undefined);
const optionalNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const USER_CHANGE_ORIGINS: readonly string[] = ['untracked_before_phase', 'modified_before_phase', 'changed_between_runs'] satisfies UserChangeOrigin[];
const isUserChange = (value: unknown): value is UserChange =>
  typeof value === 'object' && value !== null && isString((value as UserChange).path) && USER_CHANGE_ORIGINS.includes((value as UserChange).origin);
const isOwedRegression = (value: unknown): value is OwedRegression =>
  typeof value === 'object' && value !== null && isString((value as OwedRegression).phaseId) && isString((value as OwedRegression).name) && Array.isArray((value as OwedRegression).suspects) && (value as OwedRegression).suspects.every(isString);
const isFileState = (value: unknown): value is FileState =>
  typeof value === 'object' && value !== null && isString((value as FileState).path) && (isString((value as FileState).hash) || (value as FileState).hash === null);

function elapsedMs(from: string | undefined, to: string): number | undefined {
  if (from === undefined) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms : undefined;
}

function newPhase(id: string): PhaseState {
  return {
    id,
    title: id,
    status: 'pending',
    attempts: 0,
    restarts: 0,
    retries: 0,
    sessions: [],
    commits: [],
    progress: [],
    lastActivity: [],
    signals: [],
    gates: [],
    peakContextPercent: 0,
    costUsd: 0,
    sessionsWithoutCost: 0,
    inputTokens: 0,
    outputTokens: 0,
  };
}

function newSession(attemptId: string, sessionIndex: number): SessionSummary {
  return {
    attemptId,
    sessionIndex,
    peakContextPercent: 0,
    peakContextTokens: 0,
    contextWindow: 0,
    toolCalls: 0,
    costUsd: 0,
    inputTokens: 0,
    outputTokens: 0,
    ended: false,
  };
}

/** The phase an event is about, created on first mention (a phase missing from run_started). */
function phaseFor(state: RunState, phaseId: unknown): PhaseState | undefined {
  if (!isString(phaseId) || phaseId === '') return undefined;
  let phase = state.phases[phaseId];
  if (!phase) {
    phase = newPhase(phaseId);
    state.phases[phaseId] = phase;
    state.phaseOrder.push(phaseId);
  }
  return phase;
}

/** The options of a run_started line, each kept only when it has its type (RunOptions). */
export function runOptionsOf(value: unknown): RunOptions {
  if (typeof value !== 'object' || value === null) return {};
  const given = value as Record<string, unknown>;
  const options: RunOptions = {};
  for (const key of ['context_threshold', 'max_restarts', 'max_retries', 'tool_call_threshold'] as const) {
    const number = optionalNumber(given[key]);
    if (number !== undefined) options[key] = number;
  }
  for (const key of ['only', 'startAt'] as const) {
    const text = optionalString(given[key]);
    if (text !== undefined) options[key] = text;
  }
  return options;
}

function startRun(state: RunState | undefined, event: RunStartedEvent): RunState {
  const phaseIds = Array.isArray(event.phaseIds) ? event.phaseIds.filter(isString) : [];
  const options = runOptionsOf(event.options);
  if (state) {
    // A second run_started in the same journal reopens the run; its history stays.
    state.status = 'running';
    delete state.endedAt;
    delete state.exitCode;
    delete state.reason;
    state.options = options;
    for (const id of phaseIds) phaseFor(state, id);
    return state;
  }
  const fresh: RunState = {
    runId: String(event.runId),
    planPath: String(event.planPath),
    planName: String(event.planName),
    status: 'running',
    startedAt: event.ts,
    options,
    phaseOrder: [],
    phases: {},
    notices: [],
    lastEventAt: event.ts,
  };
  if (isString(event.resumedFrom)) fresh.resumedFrom = event.resumedFrom;
  const priorCostUsd = optionalNumber(event.priorCostUsd);
  if (priorCostUsd !== undefined) fresh.priorCostUsd = priorCostUsd;
  const priorEstimated = optionalNumber(event.priorCostEstimatedUsd);
  if (priorEstimated !== undefined) fresh.priorCostEstimatedUsd = priorEstimated;
  if (typeof event.budget === 'object' && event.budget !== null) {
    const maxCostUsd = optionalNumber(event.budget.maxCostUsd);
    const maxPhaseCostUsd = optionalNumber(event.budget.maxPhaseCostUsd);
    fresh.budget = { ...(maxCostUsd === undefined ? {} : { maxCostUsd }), ...(maxPhaseCostUsd === undefined ? {} : { maxPhaseCostUsd }) };
  }
  const fingerprint = asPlanFingerprint(event.planFingerprint);
  if (fingerprint) fresh.planFingerprint = fingerprint;
  for (const id of phaseIds) phaseFor(fresh, id);
  return fresh;
}

function startAttempt(phase: PhaseState, event: AttemptStartedEvent): void {
  if (!isString(event.attemptId)) return;
  phase.attempts += 1;
  phase.currentAttemptId = event.attemptId;
  phase.restarts = Math.max(phase.restarts, count(event.restart));
  phase.retries = Math.max(phase.retries, count(event.retry));
}

function findSession(phase: PhaseState, attemptId: unknown, sessionIndex: unknown): SessionSummary | undefined {
  for (let i = phase.sessions.length - 1; i >= 0; i--) {
    const session = phase.sessions[i];
    if (session && session.sessionIndex === sessionIndex && (attemptId === undefined || session.attemptId === attemptId)) {
      return session;
    }
  }
  return undefined;
}

function startSession(phase: PhaseState, event: SessionStartedEvent): void {
  if (!isString(event.attemptId)) return;
  const session = newSession(event.attemptId, count(event.sessionIndex));
  const agentPid = optionalNumber(event.agentPid);
  const agentStartTime = optionalNumber(event.agentStartTime);
  if (agentPid !== undefined) session.agentPid = agentPid;
  if (agentStartTime !== undefined) session.agentStartTime = agentStartTime;
  const marker = optionalString(event.marker);
  if (marker !== undefined) session.marker = marker;
  const streamLogPath = optionalString(event.streamLogPath);
  if (streamLogPath !== undefined) session.streamLogPath = streamLogPath;
  phase.sessions.push(session);
}

function endSession(phase: PhaseState, event: SessionEndedEvent): void {
  if (!isString(event.attemptId)) return;
  let session = findSession(phase, event.attemptId, event.sessionIndex);
  if (!session) {
    session = newSession(event.attemptId, count(event.sessionIndex));
    phase.sessions.push(session);
  }
  session.ended = true;
  const outcome = optionalString(event.outcome);
  if (outcome !== undefined) session.outcome = outcome;
  session.peakContextPercent = Math.max(session.peakContextPercent, count(event.peakContextPercent));
  session.peakContextTokens = Math.max(session.peakContextTokens, count(event.peakContextTokens));
  session.contextWindow = count(event.contextWindow) || session.contextWindow;
  const limitTokens = optionalNumber(event.contextLimitTokens);
  const limitSource = optionalString(event.contextLimitSource);
  if (limitTokens !== undefined && limitSource !== undefined) Object.assign(session, { contextLimitTokens: limitTokens, contextLimitSource: limitSource });
  session.toolCalls = Math.max(session.toolCalls, count(event.toolCalls));
  session.costUsd = count(event.costUsd);
  if (event.costUnknown === true) session.costUnknown = true;
  if (event.costEstimated === true) session.costEstimated = true;
  session.inputTokens = count(event.inputTokens);
  session.outputTokens = count(event.outputTokens);
  const durationMs = optionalNumber(event.durationMs);
  if (durationMs !== undefined) session.durationMs = durationMs;
  const sessionId = optionalString(event.sessionId);
  if (sessionId !== undefined) session.sessionId = sessionId;
  const errorClass = optionalString(event.errorClass);
  if (errorClass !== undefined) session.errorClass = errorClass;
  const lastActivity = stringList(event.lastActivity);
  if (lastActivity.length > 0) phase.lastActivity = lastActivity;
  const incompleteLogs = Array.isArray(event.incompleteLogs) ? event.incompleteLogs.filter((log) => typeof log === 'object' && log !== null && isString(log.path) && isString(log.error)) : [];
  if (incompleteLogs.length > 0) session.incompleteLogs = incompleteLogs.map((log) => ({ path: log.path, error: log.error }));
  phase.peakContextPercent = Math.max(phase.peakContextPercent, session.peakContextPercent);
  phase.costUsd += session.costUsd;
  if (session.costUnknown === true) phase.sessionsWithoutCost += 1;
  if (session.costEstimated === true) phase.estimatedCostUsd = (phase.estimatedCostUsd ?? 0) + session.costUsd;
  phase.inputTokens += session.inputTokens;
  phase.outputTokens += session.outputTokens;
}

function crossContext(phase: PhaseState, event: ContextCrossedEvent): void {
  const percent = count(event.percent);
  phase.peakContextPercent = Math.max(phase.peakContextPercent, percent);
  const session = findSession(phase, undefined, event.sessionIndex);
  if (!session) return;
  session.peakContextPercent = Math.max(session.peakContextPercent, percent);
  session.peakContextTokens = Math.max(session.peakContextTokens, count(event.usedTokens));
  session.contextWindow = count(event.contextWindow) || session.contextWindow;
  session.toolCalls = Math.max(session.toolCalls, count(event.toolCalls));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter(isString) : [];
}

/** What an interrupted run knew about the phase comes first: it happened before this run. */
function resumePhase(phase: PhaseState, event: PhaseResumedEvent): void {
  const carried = Array.isArray(event.progress) ? event.progress : [];
  const progress = carried
    .filter((entry): entry is { message: string; ts: string; attemptId?: string } => typeof entry === 'object' && entry !== null && isString(entry.message))
    .map((entry) => ({ message: entry.message, ts: String(entry.ts), ...(isString(entry.attemptId) ? { attemptId: entry.attemptId } : {}) }));
  phase.progress = [...progress, ...phase.progress];
  const lastActivity = stringList(event.lastActivity);
  if (phase.lastActivity.length === 0) phase.lastActivity = lastActivity;
  const priorCostUsd = optionalNumber(event.priorCostUsd);
  if (priorCostUsd !== undefined) phase.priorCostUsd = priorCostUsd;
}

function recordCommit(phase: PhaseState, event: CommitEvent): void {
  if (!isString(event.sha)) return;
  phase.commits.push({ sha: event.sha, message: String(event.message), purpose: String(event.purpose) });
}

/** A verdict the journal holds but debussy cannot prove it wrote: noted beside the state, which it does not change. */
function noteUnproven(state: RunState, event: UnprovenRecordEvent): void {
  const { record, why } = event;
  const phase = phaseFor(state, record.phaseId);
  if (!phase) return;
  (state.unproven ??= []).push({
    type: record.type, phaseId: phase.id, ts: event.ts, why,
    ...(record.type === 'phase_ended' ? { status: String(record.status) } : { gate: String(record.name) }),
  });
  if (record.type === 'phase_ended') phase.unprovenCompletion = { ts: event.ts, why };
}

function apply(state: RunState, event: JournalEvent): void {
  switch (event.type) {
    case 'unproven':
      noteUnproven(state, event);
      return;
    case 'run_ended':
      state.status = event.status;
      state.endedAt = event.ts;
      state.exitCode = count(event.exitCode);
      if (isString(event.reason)) state.reason = event.reason;
      return;
    case 'notice':
      state.notices.push(event);
      return;
    case 'regression_result':
      (state.regressions ??= []).push(event);
      return;
    case 'regression_check':
      if (event.stage === 'finished') state.endCheck = { ...(state.endCheck ?? { phases: [], regressions: [] }), finished: true };
      else state.endCheck = { phases: stringList(event.phases), regressions: Array.isArray(event.regressions) ? event.regressions.filter(isOwedRegression) : [], finished: false };
      return;
    case 'plan_changed':
      state.planChanged = event;
      return;
    case 'usage_limit':
      if (event.stage === 'started' && typeof event.until === 'number') state.usageLimitWait = { phaseId: String(event.phaseId), kind: String(event.kind), until: event.until };
      else delete state.usageLimitWait;
      applyToPhase(state, event);
      return;
    case 'commit_failed':
      state.notices.push({
        type: 'notice',
        v: event.v,
        ts: event.ts,
        pid: event.pid,
        level: 'warning',
        message: `commit failed: ${String(event.message)}`,
        ...(isString(event.phaseId) ? { phaseId: event.phaseId } : {}),
      });
      return;
    default:
      applyToPhase(state, event);
  }
}

function applyToPhase(state: RunState, event: JournalEvent): void {
  if (!('phaseId' in event)) return;
  const phase = phaseFor(state, event.phaseId);
  if (!phase) return;
  switch (event.type) {
    case 'phase_started':
      if (isString(event.title) && event.title !== '') phase.title = event.title;
      phase.status = 'in_progress';
      phase.startedAt ??= event.ts;
      if (phase.baseSha === undefined && isString(event.baseSha)) phase.baseSha = event.baseSha;
      delete phase.unprovenCompletion;
      delete phase.endedAt;
      delete phase.durationMs;
      delete phase.reason;
      return;
    case 'phase_ended': {
      phase.status = event.status;
      delete phase.unprovenCompletion;
      phase.endedAt = event.ts;
      const durationMs = elapsedMs(phase.startedAt, event.ts);
      if (durationMs !== undefined) phase.durationMs = durationMs;
      if (isString(event.reason)) phase.reason = event.reason;
      return;
    }
    case 'phase_job':
      // The sessions ran on a worker: their spend comes with its result and counts here (status, max_cost).
      if (event.stage === 'ended') phase.costUsd += count(event.costUsd);
      return;
    case 'phase_branch':
      if (isString(event.branch) && isString(event.worktree)) phase.branch = { name: event.branch, worktree: event.worktree, merged: event.stage === 'merged' };
      return;
    case 'attempt_started':
      return startAttempt(phase, event);
    case 'session_started':
      return startSession(phase, event);
    case 'session_ended':
      return endSession(phase, event);
    case 'context_crossed':
      return crossContext(phase, event);
    case 'commit':
      return recordCommit(phase, event);
    case 'restart':
      phase.restarts = Math.max(phase.restarts, count(event.restart));
      return;
    case 'user_changes':
      if (Array.isArray(event.changes)) phase.userChanges = event.changes.filter(isUserChange);
      return;
    case 'uncommitted_at_stop':
      if (Array.isArray(event.files)) phase.uncommittedAtStop = event.files.filter(isFileState);
      return;
    case 'signal':
      phase.signals.push(event);
      return;
    case 'phase_resumed':
      return resumePhase(phase, event);
    case 'progress':
      phase.progress.push({ message: String(event.message), ts: event.ts, ...(isString(event.attemptId) ? { attemptId: event.attemptId } : {}) });
      return;
    case 'gate_result':
      phase.gates.push(event);
      return;
    case 'baseline_result':
      phase.baseline = [...(phase.baseline ?? []).filter((gate) => gate.name !== event.name), event];
      return;
    default:
      // stop_requested and event types this version does not know change no state.
      return;
  }
}

/**
 * Folds one more event into a run's state (which it updates in place) and returns the state;
 * undefined until the first run_started event. foldRun is this over a whole journal; a run that
 * keeps its state current folds each event once, as it arrives.
 */
export function foldEvent(state: RunState | undefined, event: JournalEvent): RunState | undefined {
  let next = state;
  if (event.type === 'run_started') {
    next = startRun(state, event);
  } else if (next) {
    apply(next, event);
  }
  if (next && event.ts > next.lastEventAt) next.lastEventAt = event.ts;
  return next;
}

/** The run's state, or undefined when the journal has no run_started event. */
export function foldRun(events: readonly JournalEvent[]): RunState | undefined {
  let state: RunState | undefined;
  for (const event of events) state = foldEvent(state, event);
  return state;
}
