/**
 * The decision after debussy re-ran a phase's gates on the agent's claim of completion: complete,
 * send the phase back to remediation, or give up. Pure, like next-step.ts beside it: the phase
 * runner gathers the verdicts (gates, notes files, the session's refusals, the retry budget) and
 * carries out what this returns.
 */
import { describeRefusals } from '../permissions/refusals.js';
import { FAILURE_CLASSES } from '../recovery/failure-class.js';

export interface VerificationInput<Gate extends { name: string }> {
  /** The user stopped debussy while the gates ran: their verdict is unknown. */
  interrupted: boolean;
  /** The gates that failed, in plan order. */
  failedGates: readonly Gate[];
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
  /** Complete; `accepted` are notes problems let through because no retries were left. */
  | { kind: 'complete'; accepted: string[] }
  /**
   * One more session to mend what failed. `retries` is the budget used after it; `checkpointReason`
   * is set when the work so far is committed first (failed gates; a missing notes file is not).
   */
  | { kind: 'remediate'; retries: number; notice: string; failedGates: Gate[]; otherProblems: string[]; checkpointReason?: string }
  | { kind: 'fail'; reason: string; hint: string }
  /** The agent was refused what the checks need: a remediation session would be refused the same way. */
  | { kind: 'abort_permissions'; reason: string; hint: string };

export function decideAfterVerification<Gate extends { name: string }>(input: VerificationInput<Gate>): AfterVerification<Gate> {
  if (input.interrupted) return { kind: 'interrupted' };
  const failed = [...input.failedGates];
  const problems = [...input.notesProblems];
  const retriesLeft = input.retries < input.maxRetries;
  const names = failed.map((gate) => gate.name).join(', ');

  if ((failed.length > 0 || (problems.length > 0 && retriesLeft)) && input.refusals.length > 0) {
    const unmet = [...(failed.length > 0 ? [`gate(s) ${names} failed`] : []), ...problems].join('; ');
    return {
      kind: 'abort_permissions',
      reason: `${unmet} after ${describeRefusals(input.refusals)}: allow them with permission_mode / allowed_tools`,
      hint: FAILURE_CLASSES.permissions.suggestedAction,
    };
  }
  if (failed.length === 0) {
    if (problems.length > 0 && retriesLeft) {
      const retries = input.retries + 1;
      return { kind: 'remediate', retries, notice: `gates passed but ${problems.join('; ')}: remediation ${retries}/${input.maxRetries}`, failedGates: [], otherProblems: problems };
    }
    return { kind: 'complete', accepted: problems };
  }
  if (!retriesLeft) {
    return {
      kind: 'fail',
      reason: `gate(s) ${names} still failing after ${input.retries} remediation session(s) (max_retries ${input.maxRetries})`,
      hint: 'Run the gates yourself (`debussy done --phase ID --verify` shows them) and fix what remains.',
    };
  }
  const retries = input.retries + 1;
  return {
    kind: 'remediate',
    retries,
    notice: `verification failed (${names}): remediation ${retries}/${input.maxRetries}`,
    failedGates: failed,
    otherProblems: problems,
    checkpointReason: `gates failed: ${names}`,
  };
}
