/**
 * Before a phase's first session: its gates run once and their verdict is recorded
 * (baseline_result), so verification can tell the failures the phase introduced from those it
 * inherited (verification/baseline.ts). The same run verifies a completed phase again whose file or
 * gates changed since (plan_changed): when every gate passes, the phase is done without a session.
 *
 * A resumed phase keeps the baseline its interrupted run recorded (the tree now holds the phase's
 * work: a baseline taken now would be no baseline); one without a recorded baseline gets none.
 */
import { runGates } from '../verification/run-gates.js';
import type { Phase } from '../plan/types.js';
import type { PhaseCarry, PhaseContext } from './phase-context.js';

export type BaselineOutcome =
  /** A changed completed phase whose gates all pass: done again, no session needed. */
  | { kind: 'reverified' }
  | { kind: 'run_phase' };

export async function takeBaseline(ctx: PhaseContext, phase: Phase, carry: PhaseCarry): Promise<BaselineOutcome> {
  const reverify = carry.reverify !== undefined;
  // A phase to verify again may also be one an interrupted run was in (its completion unproven):
  // its gates decide first; when one fails, it resumes with the baseline its run recorded.
  if (reverify || (carry.resumeReason === undefined && ctx.config.baseline_gates)) {
    const outcome = await runBaselineGates(ctx, phase, carry);
    if (outcome.kind === 'reverified') return outcome;
  }
  if (carry.baseline !== undefined && carry.baseline.length > 0) {
    const fromRunId = carry.resumedFrom?.runId;
    for (const { type, phaseId, name, command, passed, exitCode, durationMs, outputTail, failures, reverify: again } of carry.baseline) {
      ctx.recorder.record({ type, phaseId, name, command, passed, exitCode, durationMs, outputTail, ...(failures === undefined ? {} : { failures }), ...(again === true ? { reverify: again } : {}), ...(fromRunId === undefined ? {} : { fromRunId }) });
    }
  }
  return { kind: 'run_phase' };
}

async function runBaselineGates(ctx: PhaseContext, phase: Phase, carry: PhaseCarry): Promise<BaselineOutcome> {
  const { recorder } = ctx;
  const reverify = carry.reverify !== undefined;
  const gates = phase.file?.gates ?? [];
  if (gates.length === 0) return { kind: 'run_phase' };

  const outcomes = await runGates(gates, ctx.root, ctx.config.gate_timeout, ctx.env, { interrupt: ctx.interrupt, forceStop: ctx.forceStop });
  for (const outcome of outcomes) {
    if (outcome.interrupted) continue; // no verdict
    recorder.record({
      type: 'baseline_result', phaseId: phase.id, name: outcome.name, command: outcome.command, passed: outcome.passed,
      exitCode: outcome.exitCode, durationMs: outcome.durationMs, outputTail: outcome.outputTail, ...(outcome.failures === undefined ? {} : { failures: outcome.failures }), ...(reverify ? { reverify: true } : {}),
    });
  }
  if (ctx.interrupt.aborted) return { kind: 'run_phase' }; // the phase runner stops before any session
  const failed = outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);
  if (reverify) {
    if (failed.length === 0) return { kind: 'reverified' };
    recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: `${carry.reverify ?? ''}: gate(s) ${failed.join(', ')} fail now, so the phase runs again` });
  } else if (failed.length > 0) {
    recorder.record({ type: 'notice', level: 'info', phaseId: phase.id, message: `gate(s) ${failed.join(', ')} fail before the phase's first session (baseline): a later failure of these gates counts as inherited only when the same things fail` });
  }
  return { kind: 'run_phase' };
}
