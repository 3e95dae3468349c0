/**
 * When a codex session stops, decided from what its stream has shown. Pure. codex 0.171.0
 * (test/harness/codex-app-server-stop.test.ts): `turn/interrupt` ends the turn in under a second
 * (turn/completed, status interrupted) but leaves a running tool alive until stdin closes; closing
 * stdin ends the app-server (exit 0) and kills what its tools left. A tool starts at its output
 * item, before the response's usage is known, so the tools of the response a stop was decided on
 * are the turn's own and may finish, as with claude; from the interrupt on, the PreToolUse guard
 * refuses any call that would still come.
 */

export interface CodexStopFacts {
  stopRequested: boolean;
  /** An interrupt or a timeout: no tool may finish. */
  immediate: boolean;
  /** The wait for the stop's response to complete ran out (responseDrainMs). */
  drainExpired: boolean;
  /** turn/start was answered: there is a turn to interrupt. */
  turnKnown: boolean;
  turnEnded: boolean;
  interruptSent: boolean;
  stdinClosed: boolean;
  /** Calls whose usage has come (their response complete). */
  calls: number;
  /** The call the stop was decided in: its tools may finish, no later call's. */
  stopCall: number;
  /**
   * Calls whose tools have all finished: thread/tokenUsage/updated comes once they have (and before
   * the next request), also for a call whose tool the guard refused (no item at all) or that
   * codex answered "Process running". An item/started may come after the response's usage, so
   * running items alone cannot tell.
   */
  settledCalls: number;
}

export type CodexStopStep =
  /** Nothing to do now. */
  | 'none'
  /** Wait for the stop's response or its tools. */
  | 'wait'
  /** Send turn/interrupt. */
  | 'interrupt'
  /** Close stdin: codex exits 0 and ends its tools' processes. */
  | 'close';

export interface CodexStopDecision {
  step: CodexStopStep;
  /** Refuse every tool call from now on (the stop file of the PreToolUse guard). */
  armGuard: boolean;
}

export function codexStopStep(facts: CodexStopFacts): CodexStopDecision {
  const step = nextStep(facts);
  // Armed with the interrupt, not before: a call of the stop's own response may reach its hook
  // after the stop was decided (its item/started can follow the usage), and is the turn's own.
  return { step, armGuard: facts.stopRequested && (step === 'interrupt' || step === 'close' || facts.interruptSent || facts.stdinClosed) };
}

function nextStep(facts: CodexStopFacts): CodexStopStep {
  if (facts.stdinClosed) return 'none';
  // The turn is over (completed, failed or interrupted): the session has nothing left to do.
  if (facts.turnEnded) return 'close';
  if (!facts.stopRequested) return 'none';
  if (!facts.turnKnown) return 'close';
  if (facts.interruptSent) return 'wait';
  if (facts.immediate || facts.calls > facts.stopCall) return 'interrupt';
  // The stop's response is still streaming: its tools are the turn's own.
  if (facts.calls < facts.stopCall) return facts.drainExpired ? 'interrupt' : 'wait';
  return facts.settledCalls >= facts.calls ? 'interrupt' : 'wait';
}
