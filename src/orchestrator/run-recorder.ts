/**
 * Writes the run's journal and shows each event to the reporters: one place for both. The journal
 * is held by a JournalKeeper, so the run survives its file being deleted or replaced under it; the
 * first such loss is handed to `onLoss`. Events other processes append (the agent's `debussy
 * done`/`progress`, answered by the run's inbox or by the full CLI) are shown too, in journal order,
 * as soon as the keeper takes them in. Each line it writes is sealed (state/journal-seal.ts); the
 * run's own state believes the verdicts among the lines only when their seal checks, so a line the
 * agent appends cannot pass a gate or complete a phase.
 */
import { StateError } from '../errors/index.js';
import { redactDeep, type Redactor } from '../redact/index.js';
import type { Reporter } from '../report/reporter.js';
import {
  eventsOfLines, foldEvent, JournalKeeper, RunJournalProof, runSealContext, sealLine, stampEvent, type JournalEvent, type JournalLoss, type NewJournalEvent, type RunState, type UsableKey,
} from '../state/index.js';

/** What the run seals its lines with: its id and debussy's key (state/journal-key.ts). */
export interface RunSeal {
  runId: string;
  key: UsableKey;
}

export class RunRecorder {
  private readonly keeper: JournalKeeper;
  private lossSeen = false;
  /** How many of the keeper's lines the reporters have been shown. */
  private shown = 0;
  /** The run's state, kept current: each journal line is folded once, when the run first asks after it. */
  private folded: RunState | undefined;
  private foldedLines = 0;
  /** Judges the lines for the run's state, and (each line once, in order too) for the reporters. */
  private readonly proof: RunJournalProof;
  private readonly showProof: RunJournalProof;
  private readonly sealContext: string;
  /** How many records the run has sealed: the next one's `seq`. */
  private sealed = 0;

  constructor(
    readonly journalFile: string,
    private readonly reporter: Required<Reporter>,
    /** Scrubs secrets from every event before it is written or shown. */
    readonly redact: Redactor,
    private readonly seal: RunSeal,
    private readonly onLoss: (loss: JournalLoss) => void = () => {},
  ) {
    this.keeper = new JournalKeeper(journalFile);
    this.sealContext = runSealContext(seal.runId);
    this.proof = new RunJournalProof(seal.runId, seal.key);
    this.showProof = new RunJournalProof(seal.runId, seal.key);
  }

  record(event: NewJournalEvent): JournalEvent {
    const written = stampEvent(redactDeep(event, this.redact));
    const line = sealLine(JSON.stringify({ ...written, seq: this.sealed++ }), this.sealContext, this.seal.key.key);
    const loss = this.keeper.append(line);
    this.showNewLines(written, line);
    if (loss) this.lost(loss);
    return written;
  }

  /** Looks at the journal file (before others read it, and on the run's watch): puts it back if it is gone. */
  check(): void {
    const loss = this.keeper.check();
    this.showNewLines(undefined, undefined);
    if (loss) this.lost(loss);
  }

  /** The journal file lacks events the run recorded (it cannot be written): why, else undefined. */
  unsavedError(): StateError | undefined {
    this.check();
    return this.keeper.unsaved ? this.keeper.lastError : undefined;
  }

  /** Every journal line the run knows, oldest first. */
  lines(): readonly string[] {
    return this.keeper.records;
  }

  /**
   * The run as the journal says now, including what `debussy done`/`progress` appended. Only the
   * lines added since the last call are folded; the state returned is the run's live copy, to be
   * read now rather than kept.
   */
  state(): Promise<RunState> {
    this.check();
    const lines = this.keeper.records;
    for (; this.foldedLines < lines.length; this.foldedLines += 1) {
      for (const event of eventsOfLines([lines[this.foldedLines] as string], this.proof)) this.folded = foldEvent(this.folded, event);
    }
    const state = this.folded;
    if (!state) return Promise.reject(new StateError('E_JOURNAL_LOST', `the run journal ${this.journalFile} has lost its run_started event`, { hint: 'run again; `debussy status` shows what was recorded' }));
    return Promise.resolve(state);
  }

  /** Shows the reporters the lines the keeper took in since the last look; `own` (written as `ownLine`) as recorded, others as read. */
  private showNewLines(own: JournalEvent | undefined, ownLine: string | undefined): void {
    const lines = this.keeper.records;
    if (this.shown >= lines.length) return;
    let ownShown = false;
    for (; this.shown < lines.length; this.shown += 1) {
      const line = lines[this.shown] as string;
      // Judged as the fold judges them: a completion another process appended is not shown as one.
      const events = eventsOfLines([line], this.showProof);
      if (own !== undefined && !ownShown && line === ownLine) {
        ownShown = true;
        this.reporter.journal(own);
        continue;
      }
      for (const event of events) this.reporter.journal(event);
    }
    // Not in the file's lines (never the case today): the reporters still see what the run recorded.
    if (own !== undefined && !ownShown) this.reporter.journal(own);
  }

  private lost(loss: JournalLoss): void {
    if (this.lossSeen) return;
    this.lossSeen = true;
    this.onLoss(loss);
  }
}
