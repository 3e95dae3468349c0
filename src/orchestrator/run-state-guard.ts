/**
 * Keeps a live run's own state in place while it runs. The agent works in the same tree as
 * `.debussy/`, and an agent that cleans the tree (`git clean -fdx`, `rm -rf .debussy`) takes the
 * run's journal with it. The lock and the agent's shim and inbox live where that cannot reach
 * (paths.ts: the git directory, or a per-user run-time directory); the journal is kept in memory by the recorder and written back,
 * and so is the project journal (phase marks, the plan last used).
 * This guard looks at all of them every half second and before the agent's signals are answered
 * (and at the agent's debussy and inbox, live-run-files.ts, also before each of its tool calls);
 * on a loss it says what happened and stops the run the way a Ctrl-C does (the session stops, its
 * work is committed as a checkpoint, `debussy run` resumes), with its own exit code.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT_CODES, StateError } from '../errors/index.js';
import { describeJournalLoss, type AcquiredLock, type JournalKeeper, type JournalLoss, type RunStatus } from '../state/index.js';
import type { LiveRunFiles } from './live-run-files.js';
import type { RunInputs } from './run-inputs.js';
import type { RunRecorder } from './run-recorder.js';

const WATCH_MS = 500;

export interface RunEnd {
  status: RunStatus;
  exitCode: number;
  reason: string | undefined;
}

export class RunStateGuard {
  private readonly lost = new AbortController();
  /** The user's interrupt, or the run's state lost: either stops the session and the run. */
  readonly interrupt: AbortSignal;
  private recorder: RunRecorder | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private liveFiles: LiveRunFiles | undefined;
  private inputs: RunInputs | undefined;
  /** Inputs that could not be written back, already said (said once, not every half second). */
  private readonly inputsLostTold = new Set<string>();

  constructor(
    private readonly userInterrupt: AbortSignal,
    /** The journal as the user would name it, e.g. `.debussy/runs/ID/journal.ndjson`. */
    private readonly journalShown: string,
  ) {
    this.interrupt = AbortSignal.any([userInterrupt, this.lost.signal]);
  }

  /** For the recorder: the first journal loss it met. */
  readonly journalLost = (loss: JournalLoss): void => {
    const what = loss.kind === 'unwritable' || !loss.restored ? 'cannot be written' : 'was deleted during the run';
    this.stop(describeJournalLoss(loss, this.journalShown), `debussy's state ${what} (${this.journalShown})`);
  };

  /** Starts the watch: the run's journal, other journals in `alsoKeep`, and the lock. */
  watch(input: { recorder: RunRecorder; lock: AcquiredLock; liveFiles?: LiveRunFiles; inputs?: RunInputs; alsoKeep?: { keeper: JournalKeeper; shown: string }[] }): void {
    this.recorder = input.recorder;
    this.liveFiles = input.liveFiles;
    this.inputs = input.inputs;
    const look = async () => {
      if (this.checking) return;
      this.checking = true;
      try {
        input.recorder.check();
        for (const { keeper, shown } of input.alsoKeep ?? []) {
          const loss = keeper.check();
          if (loss) input.recorder.record({ type: 'notice', level: 'warning', message: `${shown} was ${loss.kind === 'replaced' ? 'replaced' : 'removed'} during the run; ${loss.restored ? 'it was written back from memory' : `it could not be written back: ${loss.error?.message ?? ''}`}` });
        }
        this.keepLiveFiles();
        this.keepInputs();
        const lock = await input.lock.keep();
        if (lock === 'lost') {
          const message = 'the run lock was taken away or cannot be written back: another debussy run may start on this project';
          this.stop(message, message);
        }
        else if (lock === 'restored') input.recorder.record({ type: 'notice', level: 'warning', message: 'the run lock was deleted during the run; it was written back' });
      } catch {
        // A look that fails (an I/O error) is tried again on the next tick; it must never end the run.
      } finally {
        this.checking = false;
      }
    };
    this.timer = setInterval(() => void look(), WATCH_MS);
    this.timer.unref();
  }

  /**
   * Puts back the agent's debussy and its inbox if something took them (live-run-files.ts), or
   * stops the run when they cannot be: also called before each of the agent's tool calls, so a
   * `debussy done` right after `rm -rf .git/debussy` finds them.
   */
  readonly keepLiveFiles = (): void => {
    const state = this.liveFiles?.keep();
    if (state === undefined || state === 'held' || this.lost.signal.aborted) return;
    const shown = this.liveFiles?.binDir ?? '';
    if (state === 'restored') this.recorder?.record({ type: 'notice', level: 'warning', message: `the agent's debussy (${shown}) was deleted during the run; it was written back` });
    else this.stop(`the agent's debussy (${shown}) was deleted during the run and cannot be written back: ${state.lost}`, `debussy's state was deleted during the run (${shown})`);
  };

  /**
   * Writes back debussy's config and plan files if the agent deleted them (run-inputs.ts), and
   * stops the run saying so: their deletion is never committed. Also called before each commit.
   * Returns the paths that are gone and could not be written back (the commit leaves them out).
   */
  readonly keepInputs = (): string[] => {
    const kept = this.inputs?.keep();
    const lost = kept?.lost.map((file) => file.path) ?? [];
    const untold = kept?.lost.filter((file) => !this.inputsLostTold.has(file.path)) ?? [];
    if (kept === undefined || (kept.restored.length === 0 && untold.length === 0)) return lost;
    for (const file of untold) this.inputsLostTold.add(file.path);
    const deleted = [...kept.restored, ...untold.map((file) => file.path)];
    const fate = untold.length === 0
      ? 'debussy wrote them back as the run read them'
      : `debussy could not write back ${untold.map((file) => `${file.path} (${file.why})`).join(', ')}: restore them (git checkout -- <path>)`;
    // Said even when the run is already stopping (`rm -rf .debussy` takes the journal too): each deletion is news.
    this.recorder?.record({ type: 'notice', level: 'warning', message: `the agent deleted debussy's config or plan (${deleted.join(', ')}); ${fate}, and their deletion is not committed` });
    this.stop(undefined, `the agent deleted debussy's config or plan (${deleted.join(', ')})`);
    return lost;
  };

  /** Why the run stopped for its state, if it did. */
  get lostReason(): string | undefined {
    return this.lost.signal.aborted ? String(this.lost.signal.reason) : undefined;
  }

  /** Says what happened (`notice`, unless said already) and stops the run; `reason` is the short form for the stop and the run's end. */
  private stop(notice: string | undefined, reason: string): void {
    if (this.lost.signal.aborted) return;
    if (notice !== undefined) this.recorder?.record({ type: 'notice', level: 'warning', message: notice });
    this.lost.abort(reason);
  }

  /** How a run that stopped for its state ends: interrupted (it resumes), with its own exit code. */
  settle(end: RunEnd): RunEnd {
    if (this.lostReason === undefined || this.userInterrupt.aborted || end.status !== 'interrupted') return end;
    return { status: 'interrupted', exitCode: EXIT_CODES.stateLost.code, reason: `stopped: ${this.lostReason}` };
  }

  /**
   * After the run: when the journal still cannot be written, a clear error, and a copy of it at
   * `rescueFile` (outside the work tree) so nothing recorded is lost.
   */
  finish(rescueFile: string | undefined): void {
    if (this.timer) clearInterval(this.timer);
    const error = this.recorder?.unsavedError();
    if (!error) return;
    let copy: string | undefined;
    if (rescueFile !== undefined) {
      try {
        mkdirSync(path.dirname(rescueFile), { recursive: true });
        writeFileSync(rescueFile, `${this.recorder?.lines().join('\n') ?? ''}\n`);
        copy = rescueFile;
      } catch {
        copy = undefined;
      }
    }
    throw new StateError('E_STATE_LOST', `${error.message}; the run stopped`, {
      exitKind: 'stateLost',
      hint: `${error.hint ?? ''}${copy ? `; the run's journal was saved to ${copy}: put it back at ${this.journalShown} and \`debussy run\` resumes` : ''}`,
    });
  }

  /** Stops the watch (after the run, or when it failed). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
