/**
 * The figures of the session running now, for `debussy status` in another process. The journal has
 * a session's context, tool calls and cost only at session_ended; the run rewrites this small file
 * (`sessions/live.json` in the run's folder) at most every two seconds while the session streams,
 * replacing it whole (write, then rename), and removes it when the session ends. A reader believes
 * it only for the open session it names, while the run holds its lock: a file a crash left behind
 * names a session that has ended or a run that is gone.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PhaseState, RunState, SessionSummary } from './run-state.js';

export interface LiveSession {
  phaseId: string;
  attemptId: string;
  sessionIndex: number;
  /** When the figures were taken (ISO time). */
  updatedAt: string;
  /** The context of the next request, as the monitor projects it, and its share of the window. */
  contextTokens: number;
  contextPercent: number;
  /** 0 while the window is unknown. */
  contextWindow: number;
  /** Where debussy stops the session; undefined while the window is unknown. */
  contextLimitTokens?: number;
  peakContextTokens: number;
  peakContextPercent: number;
  toolCalls: number;
  /** What the session has cost so far: debussy's estimate from its tokens until claude's result. */
  costUsd: number;
  costEstimated: boolean;
  inputTokens: number;
  outputTokens: number;
}

const FILE = 'live.json';
const WRITE_EVERY_MS = 2_000;

/** The live file of a run whose session logs are in `sessionsDir` (`.debussy/runs/<run>/sessions`). */
export function liveSessionPath(sessionsDir: string): string {
  return path.join(sessionsDir, FILE);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The file's figures, or undefined when it is missing or not what this version writes. */
export function readLiveSession(file: string): LiveSession | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const numbers = ['sessionIndex', 'contextTokens', 'contextPercent', 'contextWindow', 'peakContextTokens', 'peakContextPercent', 'toolCalls', 'costUsd', 'inputTokens', 'outputTokens'];
  if (typeof v.phaseId !== 'string' || typeof v.attemptId !== 'string' || typeof v.updatedAt !== 'string' || typeof v.costEstimated !== 'boolean') return undefined;
  if (!numbers.every((key) => isNumber(v[key]))) return undefined;
  if (v.contextLimitTokens !== undefined && !isNumber(v.contextLimitTokens)) return undefined;
  return value as LiveSession;
}

/** The live figures when they belong to the run's open session; else undefined. Pure. */
export function liveSessionOf(state: RunState, live: LiveSession | undefined): LiveSession | undefined {
  if (live === undefined) return undefined;
  const session = state.phases[live.phaseId]?.sessions.find((s) => s.attemptId === live.attemptId && s.sessionIndex === live.sessionIndex);
  return session !== undefined && !session.ended ? live : undefined;
}

/**
 * The run with the open session's figures in: its summary and its phase's totals count what the
 * session has used so far, as they will once it ends (the cost marked as an estimate). Pure.
 */
export function withLiveSession(state: RunState, live: LiveSession): RunState {
  const phase = state.phases[live.phaseId];
  if (phase === undefined) return state;
  const sessions = phase.sessions.map((session): SessionSummary =>
    session.attemptId === live.attemptId && session.sessionIndex === live.sessionIndex && !session.ended
      ? {
          ...session,
          peakContextTokens: Math.max(session.peakContextTokens, live.peakContextTokens),
          peakContextPercent: Math.max(session.peakContextPercent, live.peakContextPercent),
          contextWindow: live.contextWindow || session.contextWindow,
          ...(live.contextLimitTokens === undefined ? {} : { contextLimitTokens: live.contextLimitTokens }),
          toolCalls: Math.max(session.toolCalls, live.toolCalls),
          costUsd: live.costUsd,
          ...(live.costEstimated ? { costEstimated: true } : {}),
          inputTokens: live.inputTokens,
          outputTokens: live.outputTokens,
        }
      : session,
  );
  const updated: PhaseState = {
    ...phase,
    sessions,
    peakContextPercent: Math.max(phase.peakContextPercent, live.peakContextPercent),
    costUsd: phase.costUsd + live.costUsd,
    ...(live.costEstimated ? { estimatedCostUsd: (phase.estimatedCostUsd ?? 0) + live.costUsd } : {}),
    inputTokens: phase.inputTokens + live.inputTokens,
    outputTokens: phase.outputTokens + live.outputTokens,
  };
  return { ...state, phases: { ...state.phases, [live.phaseId]: updated } };
}

/**
 * Writes one session's live file: `update` is called on every event and writes at most every two
 * seconds (the last figures are written when the interval is up), `close` removes the file. A
 * file that cannot be written costs `debussy status` its live figures, nothing more.
 */
export class LiveSessionFile {
  private lastWrite = 0;
  private timer: NodeJS.Timeout | undefined;
  private pending: (() => Omit<LiveSession, 'phaseId' | 'attemptId' | 'sessionIndex' | 'updatedAt'>) | undefined;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly session: Pick<LiveSession, 'phaseId' | 'attemptId' | 'sessionIndex'>,
    private readonly everyMs = WRITE_EVERY_MS,
  ) {}

  /** `figures` is called when the file is written, not on every event. */
  update(figures: () => Omit<LiveSession, 'phaseId' | 'attemptId' | 'sessionIndex' | 'updatedAt'>): void {
    if (this.closed) return;
    this.pending = figures;
    const wait = this.lastWrite + this.everyMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait).unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      rmSync(this.file, { force: true });
    } catch {
      /* not a directory any more: the run's state guard reports the loss */
    }
  }

  private flush(): void {
    this.timer = undefined;
    const figures = this.pending;
    if (figures === undefined || this.closed) return;
    this.pending = undefined;
    this.lastWrite = Date.now();
    const live: LiveSession = { ...this.session, updatedAt: new Date(this.lastWrite).toISOString(), ...figures() };
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileSync(temp, `${JSON.stringify(live)}\n`);
      renameSync(temp, this.file);
    } catch {
      // The state directory is gone or is not one any more (the agent replaced it): nothing to clean up there.
      try {
        rmSync(temp, { force: true });
      } catch {
        /* the run's state guard reports the loss */
      }
    }
  }
}
