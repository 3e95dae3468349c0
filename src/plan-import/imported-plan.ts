/**
 * What a reader of another tool's plan hands on: one shape for every format, before debussy ids
 * are given (assign-phase-ids.ts) and the files are written (render-plan.ts).
 */
import type { ForeignFormat } from '../plan/foreign-format.js';
import { DebussyError } from '../errors/index.js';

/** The statuses a source can say a phase has; `left-out` phases are not imported (see `leftOut`). */
export type ImportedStatus = 'pending' | 'in_progress' | 'completed' | 'blocked';

export interface ImportedGate {
  /** Short: `tests`, `typecheck`, `plan 01-02 task 1`. */
  name: string;
  /** Undefined when the source gives the check only in prose: the audit then asks for one. */
  command: string | undefined;
  /** What the source says about the check, one line, for people. */
  description: string;
}

export interface ImportedTask {
  text: string;
  done: boolean;
  /** Why the source says it will not be done (`cancelled`): shown, but not a task to check off. */
  dropped?: string;
  /** Lines shown under the task (not tasks themselves). */
  notes: string[];
}

export interface ImportedSection {
  heading: string;
  /** Markdown from the source; rendering keeps its headings from becoming sections of the phase file. */
  body: string;
}

export interface ImportedPhase {
  /** The id as the source writes it: `3`, `US-001`, `2.1`. */
  sourceId: string;
  /** How the source names it, for the trace: `task 3`, `story US-001`, `phase 2.1`. */
  sourceLabel: string;
  title: string;
  status: ImportedStatus;
  /** The status as the source says it (`done`, `passes: true`), for the trace. */
  statusText: string;
  /** Source ids of the phases it depends on (the caller maps, checks and reports them). */
  dependsOn: string[];
  /** Why the phase is not imported (`cancelled`, `deferred`); dependencies on it are dropped and said. */
  leftOut?: string;
  overview: string | undefined;
  tasks: ImportedTask[];
  gates: ImportedGate[];
  sections: ImportedSection[];
}

export interface ImportedPlan {
  format: ForeignFormat;
  /** The plan's title, as the source names the project or feature. */
  title: string;
  /** A plan name to offer when `--name` is not given (not yet validated). */
  suggestedName: string;
  /** A sentence or two about the whole plan, if the source has one. */
  description: string | undefined;
  /** What else a reader should know about where this came from: `tag master`. */
  sourceDetail: string | undefined;
  phases: ImportedPhase[];
  /** Decisions taken while reading (a dependency dropped, a script not joined), said to the user. */
  notices: string[];
}

/** The source cannot be imported: one line saying what is wrong, one saying what to do. */
export class ImportError extends DebussyError {
  constructor(message: string, hint: string) {
    super('E_PLAN_IMPORT', message, { exitKind: 'usage', hint });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or undefined; numbers are read as their text (ids are either). */
export function textField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A list of strings (numbers as text); anything else in it is dropped. */
export function textList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => (typeof item === 'string' ? [item] : typeof item === 'number' && Number.isFinite(item) ? [String(item)] : []));
}

/** "Task Priority System" -> "task-priority-system": a plan name, or '' when nothing usable is left. */
export function slugName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}
