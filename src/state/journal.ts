/** A run's journal: the append-only record every other view of the run is folded from. */
import { appendRecord, readRecords, type BadLine } from './ndjson.js';
import { isJournalEvent, JOURNAL_VERSION, type JournalEvent, type NewJournalEvent } from './events.js';
import type { RunJournalProof } from './journal-seal.js';

export interface JournalRead {
  events: JournalEvent[];
  badLines: BadLine[];
  tornTail: boolean;
}

/**
 * Appends one event, stamped with the journal version, the time and this process's PID. Safe to
 * call from several processes at once; the event is on disk when this returns. Unsealed: for the
 * agent's signals, which are claims whoever writes them (the run seals its own: run-recorder.ts).
 */
export function appendEvent(file: string, event: NewJournalEvent): JournalEvent {
  const written = stampEvent(event);
  appendRecord(file, written);
  return written;
}

/** The event as written: with the journal version, the time and this process's PID. */
export function stampEvent(event: NewJournalEvent): JournalEvent {
  return { ...event, v: JOURNAL_VERSION, ts: new Date().toISOString(), pid: process.pid };
}

/**
 * The events among journal lines (as a JournalKeeper holds them); lines that are not events are
 * skipped. With `proof`, as a run's state is folded from them: verdicts debussy cannot prove it
 * wrote stand in as `unproven` records (journal-seal.ts).
 */
export function eventsOfLines(lines: readonly string[], proof?: RunJournalProof): JournalEvent[] {
  const events: JournalEvent[] = [];
  for (const line of lines) {
    try {
      const value = JSON.parse(line) as unknown;
      if (!isJournalEvent(value)) continue;
      const event = proof ? proof.judge(value, line) : value;
      if (event !== undefined) events.push(event);
    } catch {
      /* a torn or foreign line: readJournal reports those */
    }
  }
  return events;
}

/** Every event of the journal, in order, as written. Bad lines and a torn tail are reported, not fatal. */
export async function readJournal(file: string): Promise<JournalRead> {
  const read = await readRecords(file, isJournalEvent);
  return { events: read.records, badLines: read.badLines, tornTail: read.tornTail };
}

/** The events a run's state is folded from: as readJournal, with verdicts judged by `proof` (journal-seal.ts). */
export async function readRunJournal(file: string, proof: RunJournalProof): Promise<JournalRead> {
  const read = await readRecords(file, isJournalEvent, (event, line) => proof.judge(event, line));
  return { events: read.records, badLines: read.badLines, tornTail: read.tornTail };
}
