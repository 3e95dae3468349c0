/**
 * Project-wide state outside any run: phases marked by hand (`debussy done` with no active run, as
 * in CI) and the plan last used here, so `debussy done` knows the plan without `--plan`. Kept in
 * .debussy/project.ndjson, appended like a journal. A mark whose gates debussy ran (`--verify`) is
 * sealed (journal-seal.ts): the next run takes it as done. Any other mark is a claim (whoever ran
 * `debussy done`, a person or a process the agent left behind): the next run verifies the phase by
 * its gates first (orchestrator/resume-plan.ts).
 */
import * as v from 'valibot';
import { JOURNAL_VERSION, misfitOf, type UnprovenWhy } from './events.js';
import type { JournalKey } from './journal-key.js';
import { checkSeal, sealLine } from './journal-seal.js';
import { appendLine, appendRecord, NotARecord, readRecords } from './ndjson.js';
import { canonicalPath, projectJournalPath } from './paths.js';

const projectStamp = {
  v: v.optional(v.number(), 1),
  ts: v.string(),
  pid: v.number(),
  /** Absolute path of the plan's master file. */
  planPath: v.string(),
};

const PHASE_MARK_STATUSES = ['completed', 'blocked', 'failed'] as const;
export type PhaseMarkStatus = (typeof PHASE_MARK_STATUSES)[number];

const phaseMarked = v.object({
  type: v.literal('phase_marked'),
  ...projectStamp,
  phaseId: v.string(),
  status: v.picklist(PHASE_MARK_STATUSES),
  /** The phase's gates were re-run and passed before the mark was written. */
  verified: v.boolean(),
  reason: v.optional(v.string()),
});
export type PhaseMarkedEvent = v.InferOutput<typeof phaseMarked>;

const planUsed = v.object({ type: v.literal('plan_used'), ...projectStamp });
export type PlanUsedEvent = v.InferOutput<typeof planUsed>;

const projectEventSchema = v.variant('type', [phaseMarked, planUsed]);
export type ProjectEvent = v.InferOutput<typeof projectEventSchema>;

export interface PhaseMark {
  status: string;
  verified: boolean;
  ts: string;
  reason?: string;
  /** Why the mark does not prove a completion (no --verify, or a seal that does not check); absent when it does. */
  unproven?: UnprovenWhy;
}

/** Seals bind a mark to the project journal: its plan path and phase are inside what is sealed. */
const MARK_SEAL_CONTEXT = 'project phase marks';

/** A project journal line as its readers take it, checked against its schema (a bad line when it does not fit). */
function projectEvent(value: unknown): ProjectEvent | NotARecord {
  const checked = v.safeParse(projectEventSchema, value, { abortEarly: true });
  return checked.success ? checked.output : new NotARecord(misfitOf(checked.issues));
}

function stamp(planPath: string): Omit<PlanUsedEvent, 'type'> {
  return { v: JOURNAL_VERSION, ts: new Date().toISOString(), pid: process.pid, planPath: canonicalPath(planPath) };
}

/** Records a mark; a verified one is sealed with `key` (when there is none, it reads as unproven). */
export function recordPhaseMark(
  root: string,
  mark: { planPath: string; phaseId: string; status: PhaseMarkStatus; verified: boolean; reason?: string },
  key?: Buffer,
): void {
  const event: PhaseMarkedEvent = {
    type: 'phase_marked',
    ...stamp(mark.planPath),
    phaseId: mark.phaseId,
    status: mark.status,
    verified: mark.verified,
    ...(mark.reason === undefined ? {} : { reason: mark.reason }),
  };
  if (mark.verified && key !== undefined) appendLine(projectJournalPath(root), sealLine(JSON.stringify(event), MARK_SEAL_CONTEXT, key));
  else appendRecord(projectJournalPath(root), event);
}

/**
 * The last mark of each phase of `planPath` (relative paths resolve against the current directory),
 * each judged with `key`: a verified mark proves a completion when its seal checks and it is not
 * older than a proven mark before it (a genuine line repeated later is not a new verdict).
 */
export async function readPhaseMarks(root: string, planPath: string, key: JournalKey): Promise<Record<string, PhaseMark>> {
  const wanted = canonicalPath(planPath);
  const marks = new Map<string, PhaseMark>();
  let lastProvenTs = '';
  const take = (event: ProjectEvent, line: string): undefined => {
    if (event.type !== 'phase_marked') return;
    let unproven: UnprovenWhy | undefined = event.verified ? checkSeal(line, MARK_SEAL_CONTEXT, key) : 'not_verified';
    if (unproven === undefined && event.ts < lastProvenTs) unproven = 'replayed';
    if (unproven === undefined) lastProvenTs = event.ts;
    if (canonicalPath(event.planPath, root) !== wanted) return;
    marks.set(event.phaseId, {
      status: event.status,
      verified: event.verified,
      ts: event.ts,
      ...(event.reason === undefined ? {} : { reason: event.reason }),
      ...(unproven === undefined ? {} : { unproven }),
    });
  };
  await readRecords(projectJournalPath(root), (value, line) => {
    const event = projectEvent(value);
    return event instanceof NotARecord ? event : take(event, line);
  });
  return Object.fromEntries(marks);
}

export function recordPlanUsed(root: string, planPath: string): void {
  const event: PlanUsedEvent = { type: 'plan_used', ...stamp(planPath) };
  appendRecord(projectJournalPath(root), event);
}

/** Every `plan_used` record of the project, oldest first. */
export async function readPlanUses(root: string): Promise<PlanUsedEvent[]> {
  const { records } = await readRecords(projectJournalPath(root), projectEvent);
  return records.filter((event): event is PlanUsedEvent => event.type === 'plan_used');
}
