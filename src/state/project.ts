/**
 * Project-wide state outside any run: phases marked by hand (`debussy done` with no active run, as
 * in CI) and the plan last used here, so `debussy done` knows the plan without `--plan`. Kept in
 * .debussy/project.ndjson, appended like a journal.
 */
import { JOURNAL_VERSION } from './events.js';
import { appendRecord, readRecords } from './ndjson.js';
import { canonicalPath, projectJournalPath } from './paths.js';

export type PhaseMarkStatus = 'completed' | 'blocked' | 'failed';

interface ProjectBase {
  v: number;
  ts: string;
  pid: number;
  /** Absolute path of the plan's master file. */
  planPath: string;
}

export interface PhaseMarkedEvent extends ProjectBase {
  type: 'phase_marked';
  phaseId: string;
  status: PhaseMarkStatus;
  /** The phase's gates were re-run and passed before the mark was written. */
  verified: boolean;
  reason?: string;
}

export interface PlanUsedEvent extends ProjectBase {
  type: 'plan_used';
}

export type ProjectEvent = PhaseMarkedEvent | PlanUsedEvent;

export interface PhaseMark {
  status: string;
  verified: boolean;
  ts: string;
  reason?: string;
}

function isProjectEvent(value: unknown): value is ProjectEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { type, ts, planPath } = value as Record<string, unknown>;
  return (type === 'phase_marked' || type === 'plan_used') && typeof ts === 'string' && typeof planPath === 'string';
}

function stamp(planPath: string): ProjectBase {
  return { v: JOURNAL_VERSION, ts: new Date().toISOString(), pid: process.pid, planPath: canonicalPath(planPath) };
}

export function recordPhaseMark(
  root: string,
  mark: { planPath: string; phaseId: string; status: PhaseMarkStatus; verified: boolean; reason?: string },
): void {
  const event: PhaseMarkedEvent = {
    type: 'phase_marked',
    ...stamp(mark.planPath),
    phaseId: mark.phaseId,
    status: mark.status,
    verified: mark.verified,
    ...(mark.reason === undefined ? {} : { reason: mark.reason }),
  };
  appendRecord(projectJournalPath(root), event);
}

/** The last mark of each phase of `planPath` (relative paths resolve against the current directory). */
export async function readPhaseMarks(root: string, planPath: string): Promise<Record<string, PhaseMark>> {
  const wanted = canonicalPath(planPath);
  const marks = new Map<string, PhaseMark>();
  for (const event of (await readRecords(projectJournalPath(root), isProjectEvent)).records) {
    if (event.type !== 'phase_marked' || typeof event.phaseId !== 'string') continue;
    if (canonicalPath(event.planPath, root) !== wanted) continue;
    marks.set(event.phaseId, {
      status: String(event.status),
      verified: event.verified === true,
      ts: event.ts,
      ...(typeof event.reason === 'string' ? { reason: event.reason } : {}),
    });
  }
  return Object.fromEntries(marks);
}

export function recordPlanUsed(root: string, planPath: string): void {
  const event: PlanUsedEvent = { type: 'plan_used', ...stamp(planPath) };
  appendRecord(projectJournalPath(root), event);
}

/** Every `plan_used` record of the project, oldest first. */
export async function readPlanUses(root: string): Promise<PlanUsedEvent[]> {
  const { records } = await readRecords(projectJournalPath(root), isProjectEvent);
  return records.filter((event): event is PlanUsedEvent => event.type === 'plan_used');
}
