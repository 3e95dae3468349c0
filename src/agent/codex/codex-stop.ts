/**
 * When a codex session stops, decided from what its stream has shown. Pure. codex 0.171.0
 * (test/harness/codex-app-server-stop.test.ts): `turn/interrupt` ends the turn in under a second
 * (turn/completed, status interrupted) but leaves a running tool alive until stdin closes; closing
 * stdin ends the app-server (exit 0) and kills what its tools left. A tool starts at its output
 * item, before the response's usage is known, so the tools of the response a stop was decided on
 * are the turn's own and may finish, as with claude. The PreToolUse guard is armed the moment the
 * stop is decided, and lets through only the calls of that response, by call id (the hook's
 * `tool_use_id`): codex asks for its next response as soon as those tools are done, and a tool of
 * that response must not run even when debussy has not yet read that they are (#26). From the
 * interrupt on, or for an immediate stop, it refuses every call.
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
  /** The tool call ids of the stop's call that have come so far (all of them once its response is complete). */
  stopCallIds: readonly string[];
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
  /**
   * The PreToolUse guard: undefined leaves it off; once set, only the tool calls it lists may run
   * (its stop file). The stop's own calls while they may still finish; none once the turn is being
   * ended, or for an immediate stop.
   */
  guardAllows: readonly string[] | undefined;
}

export function codexStopStep(facts: CodexStopFacts): CodexStopDecision {
  const step = nextStep(facts);
  if (!facts.stopRequested) return { step, guardAllows: undefined };
  // A call of the stop's own response may reach its hook after the stop was decided (codex runs an
  // apply_patch after the command before it, measured), and is the turn's own.
  const ending = facts.immediate || step === 'interrupt' || step === 'close' || facts.interruptSent || facts.stdinClosed;
  return { step, guardAllows: ending ? [] : facts.stopCallIds };
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
