/**
 * The decision after debussy re-ran a phase's gates on the agent's claim of completion: complete,
 * send the phase back to remediation, or give up. Pure, like next-step.ts beside it: the phase
 * runner gathers the verdicts (gates, notes files, the session's refusals, the retry budget) and
 * carries out what this returns. Refusals in the session that claimed completion stop the run
 * (exit 7) when something is unmet, or when the phase has no gates to check the claim with.
 */
import { describeRefusals } from '../permissions/refusals.js';
import { FAILURE_CLASSES } from '../recovery/failure-class.js';

export interface VerificationInput<Gate extends { name: string }> {
  /** The user stopped debussy while the gates ran: their verdict is unknown. */
  interrupted: boolean;
  /** How many gates the phase has: with none, the agent's word is all there is. */
  gateCount: number;
  /** The gates that failed and passed before the phase (or had no baseline): the phase's doing. In plan order. */
  failedGates: readonly Gate[];
  /** Gates that failed and failed before the phase's first session too (its baseline). */
  inheritedGates?: readonly Gate[];
  /** Whether inherited failures keep the phase from completing (block, the default) or only warn. */
  inheritedFailures?: 'block' | 'warn';
  /** Gates of phases completed earlier that fail now (regression_gates: each): the phase broke them. */
  brokenEarlierGates?: readonly (Gate & { phaseId: string })[];
  /** Notes files the phase was to write and did not ("notes file docs/x.md is missing"). */
  notesProblems: readonly string[];
  /** Summaries of the tool calls claude refused in the session that claimed completion. */
  refusals: readonly string[];
  /** The phase's retry budget: used and allowed. A remediation session uses one. */
  retries: number;
  maxRetries: number;
}

export type AfterVerification<Gate extends { name: string }> =
  | { kind: 'interrupted' }
  /**
   * Complete; `accepted` are notes problems let through because no retries were left, `tolerated`
   * inherited gate failures let through (inherited_failures: warn).
   */
  | { kind: 'complete'; accepted: string[]; tolerated: Gate[] }
  /**
   * One more session to mend what failed. `retries` is the budget used after it; `checkpointReason`
   * is set when the work so far is committed first (failed gates; a missing notes file is not).
   */
  | {
      kind: 'remediate'; retries: number; notice: string;
      /** Introduced by the phase; `inheritedGates` failed before it too; `brokenGates` are earlier phases' gates it broke. */
      failedGates: Gate[]; inheritedGates: Gate[]; brokenGates: (Gate & { phaseId: string })[];
      otherProblems: string[]; checkpointReason?: string;
    }
  | { kind: 'fail'; reason: string; hint: string }
  /** The agent was refused what the checks need: a remediation session would be refused the same way. */
  | { kind: 'abort_permissions'; reason: string; hint: string };

export function decideAfterVerification<Gate extends { name: string }>(input: VerificationInput<Gate>): AfterVerification<Gate> {
  if (input.interrupted) return { kind: 'interrupted' };
  const introduced = [...input.failedGates];
  const inheritedAll = [...(input.inheritedGates ?? [])];
  const tolerated = input.inheritedFailures === 'warn' ? inheritedAll : [];
  const inherited = input.inheritedFailures === 'warn' ? [] : inheritedAll;
  const broken = [...(input.brokenEarlierGates ?? [])];
  const failed = [...introduced, ...inherited];
  const problems = [...input.notesProblems];
  const retriesLeft = input.retries < input.maxRetries;
  const names = failed.map((gate) => gate.name).join(', ');
  const brokenNames = broken.map((gate) => `${gate.name} of phase ${gate.phaseId}`).join(', ');
  const unmetGates = [...(failed.length > 0 ? [`gate(s) ${names} failed`] : []), ...(broken.length > 0 ? [`earlier gate(s) ${brokenNames} broken`] : [])];

  if ((unmetGates.length > 0 || (problems.length > 0 && retriesLeft)) && input.refusals.length > 0) {
    const unmet = [...unmetGates, ...problems].join('; ');
    return {
      kind: 'abort_permissions',
      reason: `${unmet} after ${describeRefusals(input.refusals)}: allow them with permission_mode / allowed_tools`,
      hint: FAILURE_CLASSES.permissions.suggestedAction,
    };
  }
  // Without gates nothing checks the claim, and a session refused its tool calls may have done
  // nothing at all: its word is not enough (README, "What the agent may do").
  if (input.gateCount === 0 && input.refusals.length > 0) {
    return {
      kind: 'abort_permissions',
      reason: `no gates check this phase, and ${describeRefusals(input.refusals)} in the session that signalled it done: allow them with permission_mode / allowed_tools, and give the phase gates`,
      hint: FAILURE_CLASSES.permissions.suggestedAction,
    };
  }
  if (unmetGates.length === 0) {
    if (problems.length > 0 && retriesLeft) {
      const retries = input.retries + 1;
      return { kind: 'remediate', retries, notice: `gates passed but ${problems.join('; ')}: remediation ${retries}/${input.maxRetries}`, failedGates: [], inheritedGates: [], brokenGates: [], otherProblems: problems };
    }
    return { kind: 'complete', accepted: problems, tolerated };
  }
  if (!retriesLeft) {
    return {
      kind: 'fail',
      reason: `${failed.length > 0 ? `gate(s) ${names}` : `earlier gate(s) ${brokenNames}, which this phase broke,`} still failing after ${input.retries} remediation session(s) (max_retries ${input.maxRetries})`,
      hint: 'Run the gates yourself (`debussy done --phase ID --verify` shows them) and fix what remains.',
    };
  }
  const retries = input.retries + 1;
  const inheritedNote = inherited.length > 0 ? `; ${inherited.map((gate) => gate.name).join(', ')} failed before the phase too` : '';
  const what = [...(failed.length > 0 ? [`verification failed (${names}${inheritedNote})`] : []), ...(broken.length > 0 ? [`the phase broke earlier gate(s) ${brokenNames}`] : [])].join('; ');
  return {
    kind: 'remediate',
    retries,
    notice: `${what}: remediation ${retries}/${input.maxRetries}`,
    failedGates: introduced,
    inheritedGates: inherited,
    brokenGates: broken,
    otherProblems: problems,
    checkpointReason: failed.length > 0 ? `gates failed: ${names}` : `earlier gates broken: ${brokenNames}`,
  };
}
