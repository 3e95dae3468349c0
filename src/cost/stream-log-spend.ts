/**
 * What sessions cost that debussy never saw end (it was killed during them): the journal holds no
 * session_ended for them, but each session's raw stream log holds its usage. Priced as a live
 * session is (session-spend.ts): claude's own figure when its result is in the log, else the
 * estimate from each call's tokens, marked as estimated. A resumed run counts this spend against
 * max_cost and max_phase_cost like any other (run-spend.ts `withUnendedSpend`).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { newStreamParseState, parseStreamLine } from '../agent/claude/stream-parser.js';
import type { RunState } from '../state/run-state.js';
import type { PriceTable } from './prices.js';
import { withUnendedSpend } from './run-spend.js';
import { SessionSpend, type SpendFigure } from './session-spend.js';

/** A session's spend read back from its stream log, line by line; undefined when there is no log. */
export async function spendFromStreamLog(file: string, prices: PriceTable): Promise<SpendFigure | undefined> {
  const spend = new SessionSpend(prices);
  const state = newStreamParseState();
  try {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) for (const event of parseStreamLine(line, state)) spend.observe(event);
  } catch {
    // No log (never written, or deleted): nothing is known of what the session spent.
    return undefined;
  }
  return spend.figure();
}

/** The run's state with the spend of its sessions that never ended put in (see withUnendedSpend). */
export async function settleUnendedSpend(state: RunState, prices: PriceTable): Promise<RunState> {
  const logs = Object.values(state.phases).flatMap((phase) => phase.sessions.filter((s) => !s.ended && s.streamLogPath !== undefined).map((s) => s.streamLogPath ?? ''));
  if (logs.length === 0) return state;
  const spent = new Map<string, SpendFigure>();
  for (const log of logs) {
    const figure = await spendFromStreamLog(log, prices);
    if (figure !== undefined) spent.set(log, figure);
  }
  return withUnendedSpend(state, spent);
}
