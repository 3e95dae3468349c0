/**
 * The state of a run, computed by folding its journal. Pure: the same events always give the same
 * state, nothing here touches the disk. The events come checked against their schemas (events.ts,
 * journal.ts): a line whose fields do not fit never gets here, so each field is taken as typed.
 */
import type {
  AttemptStartedEvent,
  CommitEvent,
  ContextCrossedEvent,
  JournalEvent,
  PhaseResumedEvent,
  RunStartedEvent,
  SessionEndedEvent,
  SessionStartedEvent,
  UnprovenRecordEvent,
} from './events.js';
import type { PhaseState, RunState, SessionSummary } from './run-state.js';

/** The fields of `from` that are set: an absent optional field stays absent in the state. */
function definedOf<T extends object>(from: T): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([, value]) => value !== undefined)) as Partial<T>;
}

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
function phaseFor(state: RunState, phaseId: string | undefined): PhaseState | undefined {
  if (phaseId === undefined || phaseId === '') return undefined;
  let phase = state.phases[phaseId];
  if (!phase) {
    phase = newPhase(phaseId);
    state.phases[phaseId] = phase;
    state.phaseOrder.push(phaseId);
  }
  return phase;
}

function startRun(state: RunState | undefined, event: RunStartedEvent): RunState {
  if (state) {
    // A second run_started in the same journal reopens the run; its history stays.
    state.status = 'running';
    delete state.endedAt;
    delete state.exitCode;
    delete state.reason;
    state.options = event.options;
    for (const id of event.phaseIds) phaseFor(state, id);
    return state;
  }
  const { runId, planPath, planName, options, resumedFrom, planFingerprint, priorCostUsd, priorCostEstimatedUsd, budget } = event;
  const fresh: RunState = {
    runId, planPath, planName, status: 'running', startedAt: event.ts, options, phaseOrder: [], phases: {}, notices: [], lastEventAt: event.ts,
    ...definedOf({ resumedFrom, planFingerprint, priorCostUsd, priorCostEstimatedUsd, budget }),
  };
  for (const id of event.phaseIds) phaseFor(fresh, id);
  return fresh;
}

function startAttempt(phase: PhaseState, event: AttemptStartedEvent): void {
  phase.attempts += 1;
  phase.currentAttemptId = event.attemptId;
  phase.restarts = Math.max(phase.restarts, event.restart);
  phase.retries = Math.max(phase.retries, event.retry);
}

function findSession(phase: PhaseState, attemptId: string | undefined, sessionIndex: number): SessionSummary | undefined {
  for (let i = phase.sessions.length - 1; i >= 0; i--) {
    const session = phase.sessions[i];
    if (session && session.sessionIndex === sessionIndex && (attemptId === undefined || session.attemptId === attemptId)) {
      return session;
    }
  }
  return undefined;
}

function startSession(phase: PhaseState, { attemptId, sessionIndex, agentPid, agentStartTime, marker, streamLogPath }: SessionStartedEvent): void {
  phase.sessions.push({ ...newSession(attemptId, sessionIndex), agentPid, ...definedOf({ agentStartTime, marker, streamLogPath }) });
}

function endSession(phase: PhaseState, event: SessionEndedEvent): void {
  let session = findSession(phase, event.attemptId, event.sessionIndex);
  if (!session) {
    session = newSession(event.attemptId, event.sessionIndex);
    phase.sessions.push(session);
  }
  session.ended = true;
  session.outcome = event.outcome;
  session.peakContextPercent = Math.max(session.peakContextPercent, event.peakContextPercent);
  session.peakContextTokens = Math.max(session.peakContextTokens, event.peakContextTokens);
  session.contextWindow = event.contextWindow || session.contextWindow;
  if (event.contextLimitTokens !== undefined && event.contextLimitSource !== undefined) Object.assign(session, { contextLimitTokens: event.contextLimitTokens, contextLimitSource: event.contextLimitSource });
  session.toolCalls = Math.max(session.toolCalls, event.toolCalls);
  session.costUsd = event.costUsd;
  if (event.costUnknown === true) session.costUnknown = true;
  if (event.costEstimated === true) session.costEstimated = true;
  session.inputTokens = event.inputTokens;
  session.outputTokens = event.outputTokens;
  session.durationMs = event.durationMs;
  Object.assign(session, definedOf({ sessionId: event.sessionId, errorClass: event.errorClass }));
  if (event.lastActivity !== undefined && event.lastActivity.length > 0) phase.lastActivity = event.lastActivity;
  if (event.incompleteLogs !== undefined && event.incompleteLogs.length > 0) session.incompleteLogs = event.incompleteLogs;
  phase.peakContextPercent = Math.max(phase.peakContextPercent, session.peakContextPercent);
  phase.costUsd += session.costUsd;
  if (session.costUnknown === true) phase.sessionsWithoutCost += 1;
  if (session.costEstimated === true) phase.estimatedCostUsd = (phase.estimatedCostUsd ?? 0) + session.costUsd;
  phase.inputTokens += session.inputTokens;
  phase.outputTokens += session.outputTokens;
}

function crossContext(phase: PhaseState, event: ContextCrossedEvent): void {
  phase.peakContextPercent = Math.max(phase.peakContextPercent, event.percent);
  const session = findSession(phase, undefined, event.sessionIndex);
  if (!session) return;
  session.peakContextPercent = Math.max(session.peakContextPercent, event.percent);
  session.peakContextTokens = Math.max(session.peakContextTokens, event.usedTokens);
  session.contextWindow = event.contextWindow || session.contextWindow;
  session.toolCalls = Math.max(session.toolCalls, event.toolCalls);
}

/** What an interrupted run knew about the phase comes first: it happened before this run. */
function resumePhase(phase: PhaseState, event: PhaseResumedEvent): void {
  const progress = event.progress.map(({ message, ts, attemptId }) => ({ message, ts, ...definedOf({ attemptId }) }));
  phase.progress = [...progress, ...phase.progress];
  if (phase.lastActivity.length === 0) phase.lastActivity = event.lastActivity;
  if (event.priorCostUsd !== undefined) phase.priorCostUsd = event.priorCostUsd;
}

function recordCommit(phase: PhaseState, { sha, message, purpose }: CommitEvent): void {
  phase.commits.push({ sha, message, purpose });
}

/** A verdict the journal holds but debussy cannot prove it wrote: noted beside the state, which it does not change. */
function noteUnproven(state: RunState, event: UnprovenRecordEvent): void {
  const { record, why } = event;
  const phase = phaseFor(state, record.phaseId);
  if (!phase) return;
  (state.unproven ??= []).push({
    type: record.type, phaseId: phase.id, ts: event.ts, why,
    ...(record.type === 'phase_ended' ? { status: record.status } : { gate: record.name }),
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
      state.exitCode = event.exitCode;
      if (event.reason !== undefined) state.reason = event.reason;
      return;
    case 'notice':
      state.notices.push(event);
      return;
    case 'regression_result':
      (state.regressions ??= []).push(event);
      return;
    case 'regression_check':
      if (event.stage === 'finished') state.endCheck = { ...(state.endCheck ?? { phases: [], regressions: [] }), finished: true };
      else state.endCheck = { phases: event.phases ?? [], regressions: event.regressions ?? [], finished: false };
      return;
    case 'plan_changed':
      state.planChanged = event;
      return;
    case 'usage_limit':
      if (event.stage === 'started' && event.until !== undefined) state.usageLimitWait = { phaseId: event.phaseId, kind: event.kind, until: event.until };
      else delete state.usageLimitWait;
      applyToPhase(state, event);
      return;
    case 'commit_failed':
      state.notices.push({ type: 'notice', v: event.v, ts: event.ts, pid: event.pid, level: 'warning', message: `commit failed: ${event.message}`, phaseId: event.phaseId });
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
      if (event.title !== '') phase.title = event.title;
      phase.status = 'in_progress';
      phase.startedAt ??= event.ts;
      if (phase.baseSha === undefined && event.baseSha !== undefined) phase.baseSha = event.baseSha;
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
      if (event.reason !== undefined) phase.reason = event.reason;
      return;
    }
    case 'phase_job':
      // The sessions ran on a worker: their spend comes with its result and counts here (status, max_cost).
      if (event.stage === 'ended') phase.costUsd += event.costUsd ?? 0;
      return;
    case 'phase_branch':
      phase.branch = { name: event.branch, worktree: event.worktree, merged: event.stage === 'merged' };
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
      phase.restarts = Math.max(phase.restarts, event.restart);
      return;
    case 'user_changes':
      phase.userChanges = event.changes;
      return;
    case 'uncommitted_at_stop':
      if (event.files !== undefined) phase.uncommittedAtStop = event.files;
      return;
    case 'signal':
      phase.signals.push(event);
      return;
    case 'phase_resumed':
      return resumePhase(phase, event);
    case 'progress':
      phase.progress.push({ message: event.message, ts: event.ts, ...definedOf({ attemptId: event.attemptId }) });
      return;
    case 'gate_result':
      phase.gates.push(event);
      return;
    case 'baseline_result':
      phase.baseline = [...(phase.baseline ?? []).filter((gate) => gate.name !== event.name), event];
      return;
    default:
      // stop_requested, recovery and the like change no state.
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
