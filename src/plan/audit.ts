import { findCycles } from './graph.js';
import { parsePlan, sortFindings, type PlanOptions } from './parse.js';
import type { AuditFinding, AuditReport, Plan } from './types.js';

/** Parses the plan and runs every check; findings are sorted by file (master first) and line. */
export async function auditPlan(masterPath: string, options: PlanOptions = {}): Promise<AuditReport> {
  const { plan, findings } = await parsePlan(masterPath, options);
  const all = plan === undefined ? findings : sortFindings(plan, [...findings, ...checkPlan(plan)]);
  return {
    plan,
    findings: all,
    errors: all.filter((finding) => finding.severity === 'error').length,
    warnings: all.filter((finding) => finding.severity === 'warning').length,
  };
}

/** Pure: the structural checks over a parsed plan. */
export function checkPlan(plan: Plan): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const master = plan.path;
  if (plan.phases.length === 0) {
    findings.push({ severity: 'error', code: 'no-phases', message: 'the phase table has no phases', file: master });
  }

  const firstById = new Map<string, number>();
  for (const phase of plan.phases) {
    const firstLine = firstById.get(phase.id);
    if (firstLine === undefined) {
      firstById.set(phase.id, phase.line);
    } else {
      findings.push({
        severity: 'error',
        code: 'duplicate-phase-id',
        message: `phase id ${phase.id} is used twice (first on line ${firstLine})`,
        file: master,
        line: phase.line,
        phaseId: phase.id,
      });
    }
  }

  for (const phase of plan.phases) {
    for (const dependency of phase.dependsOn) {
      if (firstById.has(dependency)) continue;
      findings.push({
        severity: 'error',
        code: 'unknown-dependency',
        message: `phase ${phase.id} depends on phase ${dependency}, which is not in the phase table (known: ${[...firstById.keys()].join(', ')})`,
        file: master,
        line: phase.line,
        phaseId: phase.id,
      });
    }
  }

  for (const cycle of findCycles(plan)) {
    const first = cycle[0] ?? '';
    findings.push({
      severity: 'error',
      code: 'dependency-cycle',
      message: `dependency cycle: ${cycle.join(' -> ')} (each phase depends on the next)`,
      file: master,
      ...(firstById.has(first) ? { line: firstById.get(first) } : {}),
      phaseId: first,
    });
  }

  for (const phase of plan.phases) {
    const file = phase.file;
    if (file === undefined) continue;
    for (const gate of file.gates) {
      if (gate.command !== undefined) continue;
      findings.push({
        severity: 'error',
        code: 'gate-without-command',
        message: `phase ${phase.id}: gate "${gate.name}" has no command; add (command: \`...\`) to the bullet or map it in the config (gates: {${gate.name}: "..."})`,
        file: file.path,
        line: gate.line,
        phaseId: phase.id,
      });
    }
    if (file.notesToWrite.length === 0) {
      findings.push({
        severity: 'warning',
        code: 'missing-notes-output',
        message: `phase ${phase.id}: the phase file names no notes file to write (e.g. Write \`notes/NOTES_${phase.id}.md\`), so the next phase gets no hand-off`,
        file: file.path,
        phaseId: phase.id,
      });
    }
  }
  return findings;
}
