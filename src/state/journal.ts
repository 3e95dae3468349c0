/** A run's journal: the append-only record every other view of the run is folded from. */
import { appendRecord, readRecords, type BadLine } from './ndjson.js';
import { isJournalEvent, JOURNAL_VERSION, type JournalEvent, type NewJournalEvent } from './events.js';

export interface JournalRead {
  events: JournalEvent[];
  badLines: BadLine[];
  tornTail: boolean;
}

/**
 * Appends one event, stamped with the journal version, the time and this process's PID. Safe to
 * call from several processes at once; the event is on disk when this returns.
 */
export function appendEvent(file: string, event: NewJournalEvent): JournalEvent {
  const written: JournalEvent = { ...event, v: JOURNAL_VERSION, ts: new Date().toISOString(), pid: process.pid };
  appendRecord(file, written);
  return written;
}

/** Every event of the journal, in order. Bad lines and a torn tail are reported, not fatal. */
export async function readJournal(file: string): Promise<JournalRead> {
  const read = await readRecords(file, isJournalEvent);
  return { events: read.records, badLines: read.badLines, tornTail: read.tornTail };
}
