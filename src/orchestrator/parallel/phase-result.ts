/**
 * What a phase's end means for a run of phases side by side (--parallel), as the sequential loop
 * of run-plan.ts decides it for one at a time: a completed phase goes to be merged; a failed or
 * skipped one is a problem its dependents share; an interrupt, a block, an abort or a pause stops
 * the run (the other running phases stop too, their work committed). Pure.
 */
import type { ExitCodeName } from '../../errors/index.js';
import type { PhaseResult } from '../phase-context.js';

export type RunStop =
  | { status: 'interrupted'; exitKind?: 'budget' | 'usageLimit'; reason?: string; resumeCommand?: string }
  | { status: 'blocked'; reason: string }
  | { status: 'aborted'; exitKind: ExitCodeName; reason: string };

export type AfterPhase =
  | { kind: 'merge'; verifiedOnly: boolean }
  | { kind: 'problem'; text: string }
  | { kind: 'stop'; stop: RunStop };

export function afterPhaseResult(phaseId: string, result: PhaseResult): AfterPhase {
  switch (result.status) {
    case 'completed':
      return { kind: 'merge', verifiedOnly: result.verifiedOnly === true };
    case 'skipped':
      return { kind: 'problem', text: `${phaseId} skipped (${result.reason})` };
    case 'failed':
      return { kind: 'problem', text: `${phaseId} failed (${result.reason})` };
    case 'interrupted':
      return { kind: 'stop', stop: { status: 'interrupted' } };
    case 'blocked':
      return { kind: 'stop', stop: { status: 'blocked', reason: `phase ${phaseId} is blocked: ${result.reason}` } };
    case 'paused':
      return {
        kind: 'stop',
        stop: { status: 'interrupted', exitKind: result.exitKind, reason: `phase ${phaseId}: ${result.reason}`, ...(result.resumeCommand === undefined ? {} : { resumeCommand: result.resumeCommand }) },
      };
    case 'aborted':
      return { kind: 'stop', stop: { status: 'aborted', exitKind: result.exitKind, reason: `phase ${phaseId}: ${result.reason}` } };
  }
}

/** The first stop wins, but a user's interrupt never hides a stop with a reason (a block, a budget). */
export function firstStop(current: RunStop | undefined, next: RunStop): RunStop {
  if (current === undefined) return next;
  if (current.status === 'interrupted' && current.reason === undefined && next.reason !== undefined) return next;
  return current;
}
