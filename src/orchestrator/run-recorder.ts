/** Writes the run's journal and shows each event to the reporters: one place for both. */
import { redactDeep, type Redactor } from '../redact/index.js';
import type { Reporter } from '../report/reporter.js';
import { appendEvent, foldRun, readJournal, type JournalEvent, type NewJournalEvent, type RunState } from '../state/index.js';

export class RunRecorder {
  constructor(
    readonly journalFile: string,
    private readonly reporter: Required<Reporter>,
    /** Scrubs secrets from every event before it is written or shown. */
    readonly redact: Redactor,
  ) {}

  record(event: NewJournalEvent): JournalEvent {
    const written = appendEvent(this.journalFile, redactDeep(event, this.redact));
    this.reporter.journal(written);
    return written;
  }

  /** The run as the journal says now, including what `debussy done`/`progress` appended. */
  async state(): Promise<RunState> {
    const read = await readJournal(this.journalFile);
    const state = foldRun(read.events);
    if (!state) throw new Error(`run journal ${this.journalFile} has no run_started event`);
    return state;
  }
}
