/**
 * A plan's fingerprint: what a run recorded about the plan it ran, so a later run (or `debussy
 * status`) can say what changed since. Pure: the texts are passed in (read-plan-fingerprint.ts
 * reads them).
 *
 * Hashes leave out what a run itself writes into the plan: the Status cells of the master table
 * (`update_plan_status`), a phase file's `**Status:**` line and its task checkboxes (agents tick
 * them). Without that, every completed phase would look edited to the next run.
 */
import { createHash } from 'node:crypto';
import { dirname, relative } from 'node:path';
import { findPhaseTables } from './master-plan.js';
import { scanMarkdown } from './markdown.js';
import type { Plan } from './types.js';

export interface GateFingerprint {
  name: string;
  /**
   * The command, to be shown: written to the journal redacted, so a password in it is never
   * compared from there. Empty when the gate has no command (the audit reports that).
   */
  command: string;
  /**
   * Hash of the command as the plan says it: what is compared between runs. Absent in journals
   * written before it existed (plan-diff.ts then compares the redacted command).
   */
  commandHash?: string;
}

export interface PhaseFingerprint {
  id: string;
  title: string;
  /** The phase file as linked, relative to the master plan's folder. */
  file: string;
  /** Hash of the phase file without its status line and checkbox marks; null when it is missing. */
  fileHash: string | null;
  gates: GateFingerprint[];
  dependsOn: string[];
}

export interface PlanFingerprint {
  /** Hash of the master plan without its Status cells. */
  masterHash: string;
  phases: PhaseFingerprint[];
}

/** A short hash: enough to tell two versions of a file apart, short enough for a journal line. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const STATUS_LINE = /^\s*(?:[-*+]\s+)?\*\*\s*status\s*:?\s*\*\*\s*:?.*$/gim;
const CHECKBOX = /^(\s*(?:[-*+]|\d+[.)])\s+)\[[xX]\]/gm;

/** A phase file as compared between runs: the Status line and ticked boxes do not count. */
export function normalizedPhaseText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(STATUS_LINE, '').replace(CHECKBOX, '$1[ ]');
}

/** The master plan as compared between runs: every phase table's Status cells emptied. */
export function normalizedMasterText(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (const { table, columns } of findPhaseTables(scanMarkdown(text))) {
    if (columns.status === undefined) continue;
    for (const row of table.rows) {
      const cell = row.cells[columns.status];
      const index = row.line - 1;
      const line = lines[index];
      if (cell === undefined || line === undefined) continue;
      lines[index] = line.slice(0, cell.start) + line.slice(cell.end);
    }
  }
  return lines.join('\n');
}

/**
 * The fingerprint of a parsed plan, given the texts of its files (`undefined`: the file is
 * missing or unreadable).
 */
export function fingerprintPlan(plan: Plan, textOf: (path: string) => string | undefined): PlanFingerprint {
  const master = textOf(plan.path);
  return {
    masterHash: master === undefined ? '' : textHash(normalizedMasterText(master)),
    phases: plan.phases.map((phase) => {
      const text = textOf(phase.path);
      return {
        id: phase.id,
        title: phase.title,
        file: relative(dirname(plan.path), phase.path) || phase.link,
        fileHash: text === undefined ? null : textHash(normalizedPhaseText(text)),
        gates: (phase.file?.gates ?? []).map((gate) => ({ name: gate.name, command: gate.command ?? '', commandHash: textHash(gate.command ?? '') })),
        dependsOn: [...phase.dependsOn],
      };
    }),
  };
}
