/**
 * The phases a run selects with `--only ID` (that phase) or `--phase ID` (that phase and every
 * phase after it in execution order), and what the audit's errors mean for such a run: an error in
 * a phase the run does not select cannot reach it, so it is a warning there. Pure.
 *
 * Typical case: a plan migrated from another tool whose completed rows link phase files that are
 * gone or gates without commands; `--only` / `--phase` runs of the remaining phases must not be
 * stopped by them. Whether a selected phase depends on the erroneous one does not matter: a run
 * reads of a dependency only whether it completed.
 */
import { executionOrder } from './graph.js';
import type { AuditFinding, Plan } from './types.js';

export interface PhaseSelection {
  only?: string | undefined;
  startAt?: string | undefined;
}

/** The ids the selection runs, in execution order; every phase without one (or with an id the plan lacks: the run refuses it anyway). */
export function selectedPhaseIds(plan: Plan, selection: PhaseSelection): string[] {
  const ordered = executionOrder(plan).map((phase) => phase.id);
  if (selection.only !== undefined && ordered.includes(selection.only)) return [selection.only];
  if (selection.only === undefined && selection.startAt !== undefined && ordered.includes(selection.startAt)) return ordered.slice(ordered.indexOf(selection.startAt));
  return ordered;
}

/** Errors that concern the whole plan's shape, whichever phase they name: the order of any run depends on them. */
const PLAN_WIDE: ReadonlySet<string> = new Set(['duplicate-phase-id', 'dependency-cycle']);

/** The findings as they bear on a run of `selected`: errors of phases outside it become warnings that say so. */
export function findingsForSelection(findings: readonly AuditFinding[], selected: readonly string[]): AuditFinding[] {
  return findings.map((finding) => {
    const phaseId = finding.phaseId;
    if (finding.severity !== 'error' || phaseId === undefined || PLAN_WIDE.has(finding.code) || selected.includes(phaseId)) return finding;
    return { ...finding, severity: 'warning', message: `${finding.message} (an audit error; phase ${phaseId} is not selected, so this run goes on)` };
  });
}
