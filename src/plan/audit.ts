import { findCycles } from './graph.js';
import { parsePlan, sortFindings, type PlanOptions } from './parse.js';
import type { AuditFinding, AuditReport, Gate, Plan } from './types.js';
import { holdsControls, inertLine } from '../text/inert-text.js';

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

  const known = [...firstById.keys()].join(', ');
  for (const phase of plan.phases) {
    // Reported where it is written: the table row, or the phase-file line that names it.
    for (const ref of phase.dependencyRefs) {
      if (firstById.has(ref.id)) continue;
      findings.push({
        severity: 'error',
        code: 'unknown-dependency',
        message: `phase ${phase.id} depends on phase ${ref.id}, which is not in the phase table (known: ${known})`,
        file: ref.file,
        line: ref.line,
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

  findings.push(...controlCharacters(plan));
  for (const phase of plan.phases) {
    const file = phase.file;
    if (file === undefined) continue;
    findings.push(...duplicateGates(phase.id, file.path, file.gates), ...foreignCompletionSignals(phase.id, file.path, file.completionSignals));
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
    // A completed phase is not run again, so there is no word of the agent's to take for it.
    if (file.gates.length === 0 && (phase.status ?? file.status) !== 'completed') {
      findings.push({
        severity: 'warning',
        code: 'no-gates',
        message: `phase ${phase.id} has no gates: debussy can only take the agent's word that it is done; add a "## Gates" section whose bullets name the commands that check it`,
        file: file.path,
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

/**
 * Terminal control characters (ESC, BEL, C1, bidi overrides) in what debussy shows of the plan:
 * never passed to a terminal or a commit (text/inert-text.ts), but a plan that carries them was
 * likely written to attack one, and what is shown is not all the file says.
 */
function controlCharacters(plan: Plan): AuditFinding[] {
  interface Place { what: string; text: string; file: string; line?: number; phaseId?: string }
  const places: Place[] = [{ what: "the plan's title", text: plan.name, file: plan.path }];
  for (const phase of plan.phases) {
    const phaseId = phase.id;
    places.push({ what: `phase ${phaseId}'s title or status`, text: `${phase.title}${phase.statusText ?? ''}`, file: plan.path, line: phase.line, phaseId });
    const file = phase.file;
    if (file === undefined) continue;
    places.push({ what: `phase ${phaseId}'s title or status`, text: `${file.title ?? ''}${file.statusText ?? ''}`, file: file.path, phaseId });
    for (const gate of file.gates) places.push({ what: `phase ${phaseId}: gate "${inertLine(gate.name)}"`, text: `${gate.name}${gate.command ?? ''}`, file: file.path, line: gate.line, phaseId });
  }
  return places
    .filter((place) => holdsControls(place.text))
    .map(({ what, file, line, phaseId }) => ({
      severity: 'warning' as const,
      code: 'terminal-controls',
      message: `${what} holds terminal control characters (ESC, BEL, C1 or bidi controls); debussy shows it without them, but check where this plan came from`,
      file,
      ...(line === undefined ? {} : { line }),
      ...(phaseId === undefined ? {} : { phaseId }),
    }));
}

/** A second gate with a name already used in the phase: both run, but reports cannot tell them apart. */
function duplicateGates(phaseId: string, path: string, gates: Gate[]): AuditFinding[] {
  const firstLine = new Map<string, number>();
  const findings: AuditFinding[] = [];
  for (const gate of gates) {
    const key = gate.name.toLowerCase();
    const first = firstLine.get(key);
    if (first === undefined) {
      firstLine.set(key, gate.line);
      continue;
    }
    findings.push({
      severity: 'warning',
      code: 'duplicate-gate',
      message: `phase ${phaseId}: gate "${gate.name}" is named twice (first on line ${first}); give each gate its own name`,
      file: path,
      line: gate.line,
      phaseId,
    });
  }
  return findings;
}

/**
 * A completion instruction naming another phase: the agent would signal that id, and the run,
 * waiting for this phase's signal, refuses it (or completes the other phase).
 */
function foreignCompletionSignals(phaseId: string, path: string, signals: { id: string; line: number }[]): AuditFinding[] {
  return signals
    .filter((signal) => signal.id !== phaseId)
    .map((signal) => ({
      severity: 'error' as const,
      code: 'completion-id-mismatch',
      message: `phase ${phaseId}: the phase file tells the agent to run \`debussy done --phase ${signal.id}\`, but its row in the master plan has id ${phaseId}: the run waits for phase ${phaseId}'s signal and would not take that one; write \`debussy done --phase ${phaseId}\` (or give the row id ${signal.id})`,
      file: path,
      line: signal.line,
      phaseId,
    }));
}
