/**
 * Regressions: the gates of phases completed earlier, run again after a later phase, so a phase
 * that breaks what an earlier one built is caught. `regression_gates`: `each` (after every phase:
 * a broken gate sends that phase back to remediation), `end` (once, at the end of the run: the run
 * fails naming the gate and the phases that may have broken it), `off`. Pure.
 */

export type RegressionMode = 'off' | 'end' | 'each';

export interface RegressionGate {
  /** The phase the gate belongs to. */
  phaseId: string;
  name: string;
  command: string;
}

export interface RegressionVerdict extends RegressionGate {
  passed: boolean;
  exitCode: number | null;
  outputTail: string;
}

interface PhaseGates {
  id: string;
  gates: readonly { name: string; command: string | undefined }[];
}

/**
 * The gates to run again, in plan order: those of the completed phases, each command once (under
 * the first phase that has it), without commands that have none, without the gates `skip` names
 * (`phaseId` + name: gates tolerated as failing when their phase completed), and without the
 * commands of the phase that was just verified (they passed on this very tree).
 */
export function regressionGates(
  phases: readonly PhaseGates[],
  completed: ReadonlySet<string>,
  options: { justVerified?: PhaseGates; skip?: ReadonlySet<string> } = {},
): RegressionGate[] {
  const seen = new Set((options.justVerified?.gates ?? []).flatMap((gate) => (gate.command === undefined ? [] : [gate.command])));
  const gates: RegressionGate[] = [];
  for (const phase of phases) {
    if (!completed.has(phase.id) || phase.id === options.justVerified?.id) continue;
    for (const gate of phase.gates) {
      if (gate.command === undefined || gate.command === '' || seen.has(gate.command)) continue;
      if (options.skip?.has(gateKey(phase.id, gate.name))) continue;
      seen.add(gate.command);
      gates.push({ phaseId: phase.id, name: gate.name, command: gate.command });
    }
  }
  return gates;
}

export const gateKey = (phaseId: string, name: string): string => `${phaseId}\u0000${name}`;

/**
 * The phases that may have broken a gate found failing at the end of a run: those completed in
 * this run after the gate's own phase (all of this run's when that phase completed earlier).
 */
export function regressionSuspects(ownerId: string, completedThisRun: readonly string[]): string[] {
  const at = completedThisRun.indexOf(ownerId);
  return at === -1 ? [...completedThisRun] : completedThisRun.slice(at + 1);
}

/** Who broke it, as honestly as the evidence allows. */
export function describeSuspects(suspects: readonly string[]): string {
  if (suspects.length === 0) return 'no phase completed after it in this run: the gate is flaky or depends on something outside the plan';
  const first = suspects[0] ?? '';
  if (suspects.length === 1) return `phase ${first}, the only phase completed since, broke it`;
  return `one of the phases completed since broke it: ${suspects.join(', ')} (the first, ${first}, most likely; regression_gates: each names the phase)`;
}

/** The run's end reason when end-of-run regression gates fail. */
export function endRegressionReason(failed: readonly (RegressionVerdict & { suspects: readonly string[] })[]): string {
  return failed
    .map((gate) => `regression: gate ${gate.name} of phase ${gate.phaseId} fails at the end of the run (it passed when phase ${gate.phaseId} completed); ${describeSuspects(gate.suspects)}`)
    .join('; ');
}

/** How a gate broken by the phase just completed is named (notices, the failure reason). */
export function describeBrokenGate(gate: RegressionGate, phaseId: string): string {
  return `phase ${phaseId} broke gate ${gate.name} of phase ${gate.phaseId}`;
}
