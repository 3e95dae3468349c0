/**
 * What the agent's `done` and `progress` write to a run's journal and print back, in one place:
 * the full commands and the in-session fast path (in-session-signal.ts) must record exactly the
 * same thing.
 */
import type { SignalStatus } from '../state/events.js';
import { createRedactor, redactDeep } from '../redact/index.js';
import { UsageError } from '../errors/debussy-error.js';

export interface SignalInput {
  phaseId: string;
  status: SignalStatus;
  attemptId?: string | undefined;
  reason?: string | undefined;
  report?: unknown;
}

/** The journal event of a completion signal, secrets redacted. */
export function signalEvent(input: SignalInput, env: NodeJS.ProcessEnv) {
  return redactDeep({
    type: 'signal', phaseId: input.phaseId, status: input.status,
    ...(input.attemptId === undefined ? {} : { attemptId: input.attemptId }),
    ...(input.reason === undefined ? {} : { reason: input.reason }),
    ...(input.report === undefined ? {} : { report: input.report }),
  } as const, createRedactor(env));
}

export function signalRecordedLine(phaseId: string, status: SignalStatus): string {
  return `debussy: phase ${phaseId} signalled ${status}; debussy verifies its gates before accepting it\n`;
}

/** The journal event of a progress entry, secrets redacted. */
export function progressEvent(phaseId: string, message: string, attemptId: string | undefined, env: NodeJS.ProcessEnv) {
  return redactDeep({ type: 'progress', phaseId, message, ...(attemptId === undefined ? {} : { attemptId }) } as const, createRedactor(env));
}

export function progressRecordedLine(phaseId: string): string {
  return `debussy: progress recorded for phase ${phaseId}\n`;
}

export function blockedWithoutReasonWarning(): string {
  return 'debussy: warning: --status blocked without --reason: say what you need with --reason\n';
}

/**
 * A session's `done` or `progress` for a phase it is not running: the error to answer with
 * (nothing is recorded, so no reminder or retry is spent on a signal for the wrong phase);
 * undefined when `requested` is the session's phase, or outside a session (no running phase).
 * Pure; every path that records a signal asks it first.
 */
export function otherPhaseError(command: 'done' | 'progress', requested: string, running: string | undefined): UsageError | undefined {
  if (running === undefined || running === '' || requested === running) return undefined;
  const right = command === 'done' ? `\`debussy done --phase ${running}\` signals it` : `\`debussy progress --phase ${running} --message ...\` records its progress`;
  return new UsageError(`this session runs phase ${running}, not phase ${requested}: ${right}; nothing was recorded`);
}
