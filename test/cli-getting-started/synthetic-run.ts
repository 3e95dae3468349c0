/** A run folder written the way the orchestrator writes one: a journal plus session log files. */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appendEvent, journalPath, runDir, type AttemptKind } from '../../src/state/index.js';

export interface SyntheticSession {
  phaseId: string;
  sessionIndex: number;
  kind: AttemptKind;
  restart?: number;
  /** Lines of the readable log; undefined writes no log file at all. */
  log?: string[];
  /** Lines of the raw stream-json log. */
  raw?: string[];
  /** Undefined leaves the session running (no session_ended). */
  outcome?: string;
}

export class SyntheticRun {
  readonly dir: string;
  readonly journal: string;

  constructor(
    readonly root: string,
    readonly runId: string,
    readonly phaseIds: string[],
  ) {
    this.dir = runDir(root, runId);
    this.journal = journalPath(root, runId);
    appendEvent(this.journal, { type: 'run_started', runId, planPath: path.join(root, 'plans/demo/MASTER_PLAN.md'), planName: 'Demo', phaseIds, options: {} });
  }

  logFile(phaseId: string, sessionIndex: number, raw = false): string {
    return path.join(this.dir, 'sessions', `${phaseId}-${String(sessionIndex).padStart(2, '0')}${raw ? '.stream.ndjson' : '.log'}`);
  }

  phase(phaseId: string, title: string): void {
    appendEvent(this.journal, { type: 'phase_started', phaseId, title });
  }

  session(session: SyntheticSession): void {
    const attemptId = `${session.phaseId}-a${session.sessionIndex}`;
    appendEvent(this.journal, { type: 'attempt_started', phaseId: session.phaseId, attemptId, kind: session.kind, restart: session.restart ?? 0, retry: 0 });
    appendEvent(this.journal, {
      type: 'session_started', phaseId: session.phaseId, attemptId, sessionIndex: session.sessionIndex,
      agentPid: 1, promptChars: 100, logPath: this.logFile(session.phaseId, session.sessionIndex),
    });
    mkdirSync(path.join(this.dir, 'sessions'), { recursive: true });
    if (session.log) writeFileSync(this.logFile(session.phaseId, session.sessionIndex), session.log.map((l) => `${l}\n`).join(''));
    if (session.raw) writeFileSync(this.logFile(session.phaseId, session.sessionIndex, true), session.raw.map((l) => `${l}\n`).join(''));
    if (session.outcome !== undefined) this.endSession(session.phaseId, session.sessionIndex, session.outcome);
  }

  endSession(phaseId: string, sessionIndex: number, outcome: string): void {
    appendEvent(this.journal, {
      type: 'session_ended', phaseId, attemptId: `${phaseId}-a${sessionIndex}`, sessionIndex, outcome, exitCode: 0, signal: null,
      peakContextTokens: 164_000, peakContextPercent: 82, contextWindow: 200_000, toolCalls: 7, costUsd: 0.5,
      inputTokens: 1000, outputTokens: 200, durationMs: 75_000,
    });
  }

  append(phaseId: string, sessionIndex: number, text: string): void {
    appendFileSync(this.logFile(phaseId, sessionIndex), text);
  }

  end(): void {
    appendEvent(this.journal, { type: 'run_ended', status: 'completed', exitCode: 0 });
  }
}
