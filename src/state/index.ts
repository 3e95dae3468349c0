/** Durable run state: journals, their fold, the run lock and project-wide marks. */
export * from './events.js';
export { findProjectRoot, debussyDir, runsDir, runDir, journalPath, lockPath, projectJournalPath, newRunId, isValidRunId, gitDirOf, liveStateDir, liveRunDir } from './paths.js';
export { NotARecord, type BadLine } from './ndjson.js';
export { appendEvent, stampEvent, eventsOfLines, journalEventOf, readJournal, readRunJournal, type JournalRead } from './journal.js';
export { JournalKeeper, describeJournalLoss, type JournalLoss } from './journal-keeper.js';
export { removeLeftoverLiveRuns } from './live-runs.js';
export { LiveSessionFile, liveSessionOf, liveSessionPath, readLiveSession, withLiveSession, type LiveSession } from './live-session.js';
export type { SessionSummary, PhaseState, RunState, UnprovenRecord } from './run-state.js';
export { foldEvent, foldRun } from './fold.js';
export { signalForAttempt, gatesForAttempt, unfinishedSessions, effectiveRunStatus } from './run-queries.js';
export { lineVersion, newerJournalNote, refuseNewerJournal } from './journal-version.js';
export { listRuns, loadRun, latestRun, lastPlanUsed, type RunSummary } from './runs.js';
export { acquireRunLock, readRunLock, type LockInfo, type AcquiredLock } from './lock.js';
export {
  recordPhaseMark,
  readPhaseMarks,
  recordPlanUsed,
  type PhaseMark,
  type PhaseMarkStatus,
  type PhaseMarkedEvent,
  type PlanUsedEvent,
  type ProjectEvent,
} from './project.js';
export { journalKey, journalKeyFile, requireJournalKey, userStateDir, STATE_DIR_VAR, type JournalKey, type UsableKey } from './journal-key.js';
export { RunJournalProof, runSealContext, sealLine, checkSeal, describeUnproven, isVerdict } from './journal-seal.js';
