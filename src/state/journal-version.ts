/**
 * Which journal format a run's journal was written in, and what this debussy makes of a newer one.
 * Lines carry `v` (events.ts); a line without one predates versioning and reads as version 1.
 */
import { StateError } from '../errors/index.js';
import { JOURNAL_VERSION } from './events.js';

/** The version a journal line (its JSON, read or not) says it was written in: 1 when it does not say. */
export function lineVersion(value: unknown): number {
  const v = typeof value === 'object' && value !== null ? (value as { v?: unknown }).v : undefined;
  return typeof v === 'number' && Number.isInteger(v) && v > 1 ? v : 1;
}

/** One line on a journal this debussy cannot fully read; undefined when it can. */
export function newerJournalNote(runId: string, version: number): string | undefined {
  if (version <= JOURNAL_VERSION) return undefined;
  return `run ${runId} was recorded by a newer debussy (journal version ${version}; this one reads up to ${JOURNAL_VERSION}): what it recorded cannot be carried over (completed phases, checkpoints, counters)`;
}

/** Refuses to continue from a journal it cannot fully read: nothing is started or changed. */
export function refuseNewerJournal(runId: string, version: number, planArg: string): void {
  const note = newerJournalNote(runId, version);
  if (note === undefined) return;
  throw new StateError('E_JOURNAL_NEWER', note, {
    exitKind: 'prerequisites',
    hint: `Update debussy, or start over without it: \`debussy run ${planArg} --fresh\` (run ${runId} stays on disk).`,
  });
}
