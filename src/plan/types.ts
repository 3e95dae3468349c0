/** What debussy understood of a master plan and its phase files. Produced by the parser, read by
 * the audit, the execution order and the orchestrator. */
import type { ForeignFormat } from './foreign-format.js';

export type PhaseStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'blocked' | 'skipped';

export interface Gate {
  /** The bullet's name, e.g. `tests`, `lint`. */
  name: string;
  /** The shell command that checks it; undefined when the bullet names none (the config may map one). */
  command: string | undefined;
  /** Where the command came from. */
  commandSource: 'plan' | 'config' | 'none';
  /** The bullet's text without the name, for people. */
  description: string;
  /** 1-based line in the phase file. */
  line: number;
}

/** One place a plan names a dependency: a master-table row or a line of a phase file. */
export interface DependencyRef {
  id: string;
  /** Absolute path of the file that names it. */
  file: string;
  /** 1-based line in that file. */
  line: number;
}

export interface PhaseFile {
  /** Absolute path. */
  path: string;
  /** The phase file's H1, if any. */
  title: string | undefined;
  /** The `**Status:**` value as written, normalised when known. */
  statusText: string | undefined;
  status: PhaseStatus | undefined;
  /** Dependencies named in `**Depends On:**` and `## Dependencies`, each where it is named. */
  dependencyRefs: DependencyRef[];
  gates: Gate[];
  tasks: { total: number; done: number };
  /** Notes files the phase is told to write (paths as written, relative to the project root). */
  notesToWrite: string[];
  /** Notes files the phase is told to read. */
  notesToRead: string[];
  /** Each `debussy done --phase ID` the file tells the agent to run, with its line. */
  completionSignals: { id: string; line: number }[];
}

export interface Phase {
  /** Short token: `1`, `3.1`, `6D`, `2b`. */
  id: string;
  title: string;
  /** The phase file path as written in the table, relative to the master plan. */
  link: string;
  /** Absolute path of the phase file. */
  path: string;
  /** Status from the master table (normalised), or undefined when absent/unknown. */
  status: PhaseStatus | undefined;
  statusText: string | undefined;
  /** Dependencies from the table and the phase file, deduplicated, table first. */
  dependsOn: string[];
  /** Where each dependency is named (the table row, phase-file lines), table first; the phase naming itself is left out. */
  dependencyRefs: DependencyRef[];
  /** Other table columns, by header name. */
  extra: Record<string, string>;
  /** 1-based line of the row in the master plan. */
  line: number;
  /** Parsed phase file; undefined when missing or unreadable. */
  file: PhaseFile | undefined;
}

export interface Plan {
  /** The H1 with a trailing " - Master Plan" dropped. */
  name: string;
  /** Absolute path of the master plan. */
  path: string;
  phases: Phase[];
}

export type AuditSeverity = 'error' | 'warning';

export interface AuditFinding {
  severity: AuditSeverity;
  /** Stable code, e.g. `missing-phase-file`, `dependency-cycle`. */
  code: string;
  message: string;
  /** File the finding is about, absolute path. */
  file?: string;
  /** 1-based line in that file. */
  line?: number;
  phaseId?: string;
  /** Another tool's plan, given where a master plan was expected (code `foreign-plan-format`). */
  format?: ForeignFormat;
}

export interface AuditReport {
  plan: Plan | undefined;
  findings: AuditFinding[];
  errors: number;
  warnings: number;
}
