/**
 * Runs earlier phases' gates again (regression_gates) and records each verdict
 * (regression_result). Which gates, and what a failure means, are verification/regression.ts's.
 */
import { runGates, type GateOutcome } from '../verification/run-gates.js';
import type { Plan } from '../plan/types.js';
import type { OwedRegression, RegressionResultEvent, RunState } from '../state/index.js';
import { endRegressionReason, gateKey, regressionGates, regressionSuspects, type RegressionGate } from '../verification/regression.js';
import type { PhaseContext } from './phase-context.js';

export type BrokenGate = GateOutcome & { phaseId: string };

interface RegressionRun {
  mode: 'each' | 'end';
  /** each: the phase whose work is checked. */
  afterPhaseId?: string;
  /** end: who may have broken a gate (by the gate's phase). */
  suspectsOf?: (gate: RegressionGate) => string[];
}

/** The gates of the plan's phases, in plan order, as the regression selection takes them. */
export function phaseGatesOf(plan: Plan): { id: string; gates: { name: string; command: string | undefined }[] }[] {
  return plan.phases.map((phase) => ({ id: phase.id, gates: phase.file?.gates ?? [] }));
}

/** Runs the gates, records each verdict, and returns those that failed (a gate stopped by Ctrl-C has no verdict). */
export async function runRegressionGates(ctx: PhaseContext, gates: readonly RegressionGate[], run: RegressionRun): Promise<BrokenGate[]> {
  const broken: BrokenGate[] = [];
  for (const gate of gates) {
    if (ctx.interrupt.aborted) break;
    const [outcome] = await runGates([{ name: gate.name, command: gate.command, commandSource: 'plan', description: '', line: 0 }], ctx.root, ctx.config.gate_timeout, ctx.env, { interrupt: ctx.interrupt, forceStop: ctx.forceStop });
    if (outcome === undefined || outcome.interrupted) continue;
    const suspects = !outcome.passed && run.suspectsOf ? run.suspectsOf(gate) : undefined;
    const event: Omit<RegressionResultEvent, 'v' | 'ts' | 'pid'> = {
      type: 'regression_result', phaseId: gate.phaseId, name: gate.name, command: gate.command, passed: outcome.passed,
      exitCode: outcome.exitCode, durationMs: outcome.durationMs, outputTail: outcome.outputTail, mode: run.mode,
      ...(run.afterPhaseId === undefined ? {} : { afterPhaseId: run.afterPhaseId }),
      ...(suspects === undefined ? {} : { suspects }),
    };
    ctx.recorder.record(event);
    if (!outcome.passed) broken.push({ ...outcome, phaseId: gate.phaseId });
  }
  return broken;
}

/** regression_gates: each: the earlier completed phases' gates, after `phaseId` passed its own. */
export function gatesToRecheckAfter(ctx: PhaseContext, phaseId: string, tolerated: ReadonlySet<string>): RegressionGate[] {
  const phases = phaseGatesOf(ctx.plan);
  const justVerified = phases.find((phase) => phase.id === phaseId);
  return regressionGates(phases, ctx.completedPhases, { ...(justVerified === undefined ? {} : { justVerified }), skip: tolerated });
}

/**
 * Gates let through failing when their phase completed (inherited_failures: warn): the last
 * verdict of each gate of each completed phase of the run. Re-running them would blame a later
 * phase for a failure that was there all along.
 */
export function toleratedGates(state: RunState): Set<string> {
  const keys = new Set<string>();
  for (const phase of Object.values(state.phases)) {
    if (phase.status !== 'completed') continue;
    const last = new Map(phase.gates.map((gate) => [gate.name, gate.passed]));
    for (const [name, passed] of last) if (!passed) keys.add(gateKey(phase.id, name));
  }
  return keys;
}

/**
 * regression_gates: end: once the run's phases are done, the completed phases' gates run again
 * (but those of the phase verified last, which passed on this very tree). The run's failure
 * reason when one fails, naming the gate and the phases that may have broken it; else undefined.
 * A run after one whose end check failed, or did not finish, checks again even when no phase runs:
 * rerunning must not turn a regression green without a fix (owed-end-check.ts). `completedThisRun`:
 * the phases completed since the last finished check, in order (this run's, and those it owes).
 */
export async function checkAtRunEnd(
  ctx: PhaseContext, state: RunState, completedThisRun: readonly string[], verifiedLast: string | undefined,
  /** The end-of-run regressions found failing before (owed-end-check.ts): who was suspected then, when no phase of this run is. */
  unresolved: readonly OwedRegression[] = [],
): Promise<string | undefined> {
  const phases = phaseGatesOf(ctx.plan);
  const justVerified = phases.find((phase) => phase.id === verifiedLast);
  const gates = regressionGates(phases, ctx.completedPhases, { ...(justVerified === undefined ? {} : { justVerified }), skip: toleratedGates(state) });
  const suspectsOf = (gate: RegressionGate) => {
    const now = regressionSuspects(gate.phaseId, completedThisRun);
    return now.length > 0 ? now : (unresolved.find((earlier) => earlier.phaseId === gate.phaseId && earlier.name === gate.name)?.suspects ?? []);
  };
  const broken = await runRegressionGates(ctx, gates, { mode: 'end', suspectsOf });
  return broken.length === 0 ? undefined : endRegressionReason(broken.map((gate) => ({ ...gate, suspects: suspectsOf(gate) })));
}
