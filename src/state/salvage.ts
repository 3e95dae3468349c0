/**
 * A journal whose first line (run_started) is damaged (a crash mid-write, a torn copy) would hide
 * its whole run from `status`, `history` and the next `debussy run`. What that line said is put
 * back from what is left: the fields still readable in the torn text, the `plan_used` record the
 * run wrote beside it (same process, same moment), and the events after it. Pure but for reading
 * the project journal.
 */
import type { JournalEvent, RunStartedEvent } from './events.js';
import { JOURNAL_VERSION } from './events.js';
import type { BadLine } from './ndjson.js';
import type { PlanUsedEvent } from './project.js';

/** A JSON string field of a torn object, when its whole value is still there. */
function tornString(text: string, field: string): string | undefined {
  const match = new RegExp(`"${field}":("(?:[^"\\\\]|\\\\.)*")`).exec(text);
  if (!match?.[1]) return undefined;
  try {
    const value = JSON.parse(match[1]) as unknown;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function tornStringList(text: string, field: string): string[] | undefined {
  const match = new RegExp(`"${field}":(\\[[^\\]]*\\])`).exec(text);
  if (!match?.[1]) return undefined;
  try {
    const value = JSON.parse(match[1]) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** Phase ids in the order the events first name them. */
function phasesNamed(events: readonly JournalEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) if ('phaseId' in event && event.phaseId !== undefined) ids.add(event.phaseId);
  return [...ids];
}

const SAME_MOMENT_MS = 60_000;

/**
 * The run_started event a journal lost, rebuilt; undefined when nothing says which run it was
 * (no events at all). `firstLine` is the damaged line's text, `planUses` the project journal's.
 */
export function salvageRunStart(input: {
  runId: string;
  firstLine: BadLine | undefined;
  events: readonly JournalEvent[];
  planUses: readonly PlanUsedEvent[];
}): RunStartedEvent | undefined {
  const first = input.events[0];
  if (!first) return undefined;
  const torn = input.firstLine?.line === 1 ? input.firstLine.text : '';
  const firstAt = Date.parse(first.ts);
  const planUse = input.planUses.find((use) => use.pid === first.pid && Math.abs(Date.parse(use.ts) - firstAt) <= SAME_MOMENT_MS);
  const planPath = tornString(torn, 'planPath') ?? planUse?.planPath ?? '';
  const resumedFrom = tornString(torn, 'resumedFrom');
  return {
    type: 'run_started',
    v: JOURNAL_VERSION,
    ts: first.ts,
    pid: first.pid,
    runId: input.runId,
    planPath,
    planName: tornString(torn, 'planName') ?? (planPath === '' ? '(unknown plan)' : planPath),
    phaseIds: tornStringList(torn, 'phaseIds') ?? phasesNamed(input.events),
    options: {},
    ...(resumedFrom === undefined ? {} : { resumedFrom }),
  };
}
