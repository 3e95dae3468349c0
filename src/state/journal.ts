/** A run's journal: the append-only record every other view of the run is folded from. */
import * as v from 'valibot';
import { appendRecord, NotARecord, readRecords, type BadLine } from './ndjson.js';
import { JOURNAL_EVENT_SCHEMAS, JOURNAL_VERSION, misfitOf, type JournalEvent, type NewJournalEvent, type WrittenJournalEvent } from './events.js';
import type { RunJournalProof } from './journal-seal.js';
import { lineVersion } from './journal-version.js';

export interface JournalRead {
  events: JournalEvent[];
  /** Lines that are not JSON, and events whose fields do not fit their schema (with why): left out. */
  badLines: BadLine[];
  tornTail: boolean;
  /** The highest journal version among its lines, the lines left out included (journal-version.ts). */
  version: number;
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
export function stampEvent(event: NewJournalEvent): WrittenJournalEvent {
  return { ...event, v: JOURNAL_VERSION, ts: new Date().toISOString(), pid: process.pid };
}

type EventType = keyof typeof JOURNAL_EVENT_SCHEMAS;

/**
 * One line's JSON as an event, checked against its type's schema. Undefined for a type this
 * debussy does not know (a newer one's addition: passed over, as the format allows); a known type
 * whose fields do not fit is NotARecord, saying which field.
 */
export function journalEventOf(value: unknown): WrittenJournalEvent | undefined | NotARecord {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') return new NotARecord('not a journal event (no type)');
  if (!Object.hasOwn(JOURNAL_EVENT_SCHEMAS, type)) return undefined;
  const checked = v.safeParse(JOURNAL_EVENT_SCHEMAS[type as EventType], value, { abortEarly: true });
  return checked.success ? checked.output : new NotARecord(`${type}: ${misfitOf(checked.issues)}`);
}

/**
 * The events among journal lines (as a JournalKeeper holds them); lines that are not events are
 * skipped. With `proof`, as a run's state is folded from them: verdicts debussy cannot prove it
 * wrote stand in as `unproven` records (journal-seal.ts).
 */
export function eventsOfLines(lines: readonly string[], proof?: RunJournalProof): JournalEvent[] {
  const events: JournalEvent[] = [];
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a torn or foreign line: readJournal reports those
    }
    const event = journalEventOf(value);
    if (event !== undefined && !(event instanceof NotARecord)) events.push(proof ? proof.judge(event, line) : event);
  }
  return events;
}

async function readEvents(file: string, take: (event: WrittenJournalEvent, line: string) => JournalEvent): Promise<JournalRead> {
  let version = 1;
  const read = await readRecords<JournalEvent>(file, (value, line) => {
    version = Math.max(version, lineVersion(value));
    const event = journalEventOf(value);
    return event === undefined || event instanceof NotARecord ? event : take(event, line);
  });
  return { events: read.records, badLines: read.badLines, tornTail: read.tornTail, version };
}

/** Every event of the journal, in order, as written. Bad lines and a torn tail are reported, not fatal. */
export async function readJournal(file: string): Promise<JournalRead> {
  return readEvents(file, (event) => event);
}

/** The events a run's state is folded from: as readJournal, with verdicts judged by `proof` (journal-seal.ts) on the lines as written. */
export async function readRunJournal(file: string, proof: RunJournalProof): Promise<JournalRead> {
  return readEvents(file, (event, line) => proof.judge(event, line));
}
