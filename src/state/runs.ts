/** Finding runs on disk: each run is a directory under .debussy/runs holding its journal. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { foldRun } from './fold.js';
import { readRunJournal } from './journal.js';
import { journalKey } from './journal-key.js';
import { RunJournalProof } from './journal-seal.js';
import { canonicalPath, isValidRunId, runDir, runsDir } from './paths.js';
import { readPlanUses } from './project.js';
import type { BadLine } from './ndjson.js';
import type { RunState } from './run-state.js';
import { salvageRunStart } from './salvage.js';

export interface RunSummary {
  runId: string;
  dir: string;
  /** Undefined when the journal is missing or has no run_started event. */
  state: RunState | undefined;
  badLines: number;
  /** The first of them that is not a damaged first line (which firstLineDamaged tells): where, and why when it is JSON. */
  firstBadLine?: BadLine;
  tornTail: boolean;
  /** The first line (run_started) was damaged; the state was rebuilt from the rest (salvage.ts). */
  firstLineDamaged?: boolean;
  /** The highest journal version among its lines (journal-version.ts): above JOURNAL_VERSION, a newer debussy wrote it. */
  journalVersion: number;
}

async function summarize(root: string, runId: string, dir: string): Promise<RunSummary> {
  // Verdicts count only when sealed by this user's debussy for this run (journal-seal.ts).
  const read = await readRunJournal(join(dir, 'journal.ndjson'), new RunJournalProof(runId, journalKey()));
  const summary: RunSummary = { runId, dir, state: foldRun(read.events), badLines: read.badLines.length, tornTail: read.tornTail, journalVersion: read.version };
  if (!summary.state && read.events.length > 0) {
    const start = salvageRunStart({ runId, firstLine: read.badLines[0], events: read.events, planUses: await readPlanUses(root) });
    if (start) {
      summary.state = foldRun([start, ...read.events]);
      summary.firstLineDamaged = true;
    }
  }
  const firstBadLine = read.badLines.find((bad) => !(summary.firstLineDamaged === true && bad.line === 1));
  if (firstBadLine) summary.firstBadLine = firstBadLine;
  return summary;
}

/** Newest first: by start time as the journal records it, then by run id. */
function newestFirst(a: RunSummary, b: RunSummary): number {
  const aStart = a.state?.startedAt ?? '';
  const bStart = b.state?.startedAt ?? '';
  if (aStart !== bStart) return aStart < bStart ? 1 : -1;
  return a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0;
}

export async function listRuns(root: string): Promise<RunSummary[]> {
  let entries;
  try {
    entries = await readdir(runsDir(root), { withFileTypes: true });
  } catch (error) {
    // Missing, or something that is not a directory in its place: no runs to list.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  const runs: RunSummary[] = [];
  for (const entry of entries) {
    // Dot-directories are debussy's scratch space (the lock's), not runs.
    if (!entry.isDirectory() || !isValidRunId(entry.name)) continue;
    runs.push(await summarize(root, entry.name, join(runsDir(root), entry.name)));
  }
  return runs.sort(newestFirst);
}

/** One run by id; undefined when no such run directory exists. */
export async function loadRun(root: string, runId: string): Promise<RunSummary | undefined> {
  const dir = runDir(root, runId);
  try {
    await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  return summarize(root, runId, dir);
}

/**
 * The newest run that has a journal, optionally only runs of `planPath`. The given path is taken
 * relative to the current directory, a relative path in a journal relative to the project root.
 */
export async function latestRun(root: string, planPath?: string): Promise<RunSummary | undefined> {
  const wanted = planPath === undefined ? undefined : canonicalPath(planPath);
  for (const run of await listRuns(root)) {
    if (!run.state) continue;
    if (wanted === undefined || canonicalPath(run.state.planPath, root) === wanted) return run;
  }
  return undefined;
}

/** The plan last recorded with `recordPlanUsed`, else the plan of the newest run. */
export async function lastPlanUsed(root: string): Promise<string | undefined> {
  const recorded = (await readPlanUses(root)).at(-1);
  if (recorded !== undefined) return recorded.planPath;
  const planPath = (await latestRun(root))?.state?.planPath;
  return planPath === undefined ? undefined : canonicalPath(planPath, root);
}
