/**
 * When a gemini session stops, decided from what its stream has shown. Pure. gemini 0.61.0
 * (test/harness/gemini-stop.test.ts): it prints a response's tool_use lines while the response
 * streams, runs the tools once it has ended, and prints their tool_result lines when the whole batch
 * has run; the response's usage reaches the chat file as it ends. A SIGTERM ends gemini at once
 * (exit 0, no result) and leaves a running shell in its own process group (the session ends it);
 * debussy's BeforeTool guard, once armed, ends the run at the next tool call with a result.
 *
 * So, as with claude, the tools of the response the stop was decided on are the turn's own and may
 * finish: the guard is armed at once, letting through those tools alone (by their input:
 * geminiToolFingerprint), and gemini is signalled once they are done. A next response that gemini
 * asks for and gets before debussy has read that they are done (debussy starved of the CPU) has
 * its tools refused by the guard, and gemini ends its run. A stop with no tool running arms the
 * guard with nothing let through and signals after a short settle: a tool_use read after it is
 * refused (gemini ends with a result). What the chat file adds is handled one turn of the event
 * loop after it is read, so the stop call's own tool_use lines are known by then (gemini-session.ts).
 */

/**
 * How debussy's BeforeTool guard knows a call it lets through once a stop is armed: the ending of
 * the hook's input for it. gemini 0.61.0 writes the hook input as compact JSON ending
 * `,"tool_name":NAME,"tool_input":INPUT}`, INPUT serialized as its stream's tool_use line's
 * `parameters` (test/harness/gemini-stop.test.ts), so the same JSON.stringify gives the same text.
 * A tool whose input gemini changes before running it no longer matches and is refused: the safe side.
 */
export function geminiToolFingerprint(toolName: string, parameters: unknown): string {
  return `,"tool_name":${JSON.stringify(toolName)},"tool_input":${JSON.stringify(parameters ?? {})}}`;
}

export function isGeminiToolFingerprint(entry: string): boolean {
  return entry.startsWith(',"tool_name":"') && entry.endsWith('}');
}

export interface GeminiStopFacts {
  stopRequested: boolean;
  /** An interrupt or a timeout: no tool may finish. */
  immediate: boolean;
  signalled: boolean;
  /** Calls whose usage has come. */
  calls: number;
  /** The call the stop was decided in: its tools may finish, no later call's. */
  stopCall: number;
  /** Tools printed whose result has not come. */
  pendingTools: number;
  /** Tools were running when the stop came and have all finished since. */
  toolsFinishedSinceStop: boolean;
  /** The settle after a stop with nothing running is over. */
  settleExpired: boolean;
}

export type GeminiStopStep =
  | 'none'
  /** Wait for the stop call's tools. */
  | 'wait'
  /** Wait out the settle (a timer), then signal. */
  | 'settle'
  /** SIGTERM gemini now. */
  | 'signal';

export interface GeminiStopDecision {
  step: GeminiStopStep;
  /** Every tool call from now on ends gemini's run (the guard's stop file). */
  armGuard: boolean;
}

export function geminiStopStep(facts: GeminiStopFacts): GeminiStopDecision {
  if (!facts.stopRequested) return { step: 'none', armGuard: false };
  if (facts.signalled) return { step: 'none', armGuard: true };
  if (facts.immediate) return { step: 'signal', armGuard: true };
  if (facts.pendingTools > 0) {
    // A later call's tools started before the guard was armed: stop them now.
    return facts.calls > facts.stopCall ? { step: 'signal', armGuard: true } : { step: 'wait', armGuard: true };
  }
  if (facts.toolsFinishedSinceStop || facts.settleExpired) return { step: 'signal', armGuard: true };
  return { step: 'settle', armGuard: true };
}
