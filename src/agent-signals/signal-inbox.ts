/**
 * The running debussy's inbox for the agent's `debussy done` and `debussy progress`: the agent's
 * `debussy` (a sh shim, shim-script.ts) drops each call here as a file, and the run answers it in
 * process, so no node process starts per call (one node start costs about as much CPU as one of
 * claude's tool calls).
 *
 * Protocol, one directory, every step an atomic rename:
 *   shim:  writes `.new.ID` (ID: the shim's PID; NUL-separated: project root, run id, attempt id,
 *          phase id, then argv), renames it to `ID.req`, then waits for `ID.code`;
 *   run:   claims `ID.req` by renaming it to `ID.taken` (so a request is handled at most once,
 *          even if the shim gives up at the same moment), handles it with the same handler as
 *          bin/debussy.js, writes `ID.out` and `ID.err`, then `ID.code` (a number, or `fallback`
 *          when the handler declines: the shim then runs the full CLI itself).
 * A shim that gets no answer (the run has closed its inbox, or died) takes its request back
 * (renames `ID.req` away) and runs node; a request the run has claimed is always answered.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync, writeSync, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { handleInSessionSignal, type SignalAnswer } from './in-session-signal.js';

/** The answer's code file says this when the handler declines the call. */
export const FALLBACK = 'fallback';
/** Present once the run no longer answers. */
export const CLOSED_MARK = 'closed';
/** A missed file-system event costs at most this much delay. */
const RESCAN_MS = 250;

export class SignalInbox {
  private watcher: FSWatcher | undefined;
  private rescan: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * `env`: the run's environment (the agent's is built from it), for redaction. `beforeAnswer`:
   * runs before each request is handled (the run puts its journal back if it went missing).
   */
  constructor(
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly beforeAnswer: () => void = () => {},
  ) {}

  start(): this {
    mkdirSync(this.dir, { recursive: true });
    rmSync(path.join(this.dir, CLOSED_MARK), { force: true });
    try {
      // Only a new request needs a look: the answers this inbox writes fire events too.
      this.watcher = watch(this.dir, (_event, name) => {
        if (name === null || name.endsWith('.req')) this.drain();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No watcher on this file system: the rescan alone answers, a little later.
    }
    this.rescan = setInterval(() => this.drain(), RESCAN_MS);
    this.rescan.unref();
    this.drain();
    return this;
  }

  /** Answers every waiting request. Synchronous: each is one small journal append. */
  drain(): void {
    if (this.closed) return;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) if (name.endsWith('.req')) this.answer(name.slice(0, -'.req'.length));
  }

  private answer(id: string): void {
    const taken = path.join(this.dir, `${id}.taken`);
    try {
      renameSync(path.join(this.dir, `${id}.req`), taken);
    } catch {
      return; // the shim took it back, or an earlier drain answered it
    }
    let answer: SignalAnswer | undefined;
    try {
      this.beforeAnswer();
      const [root, runId, attemptId, phaseId, ...args] = readFileSync(taken, 'utf8').split('\0').slice(0, -1);
      const env = { ...this.env, DEBUSSY_PROJECT_ROOT: root, DEBUSSY_RUN_ID: runId, DEBUSSY_ATTEMPT_ID: attemptId, DEBUSSY_PHASE_ID: phaseId };
      answer = root && runId && attemptId ? handleInSessionSignal(args, env) : undefined;
    } catch {
      answer = undefined; // unreadable: the full CLI will say what is wrong
    }
    this.write(id, answer);
    rmSync(taken, { force: true });
  }

  private write(id: string, answer: SignalAnswer | undefined): void {
    const file = (suffix: string) => path.join(this.dir, `${id}.${suffix}`);
    writeFileSync(file('out'), answer?.stdout ?? '');
    writeFileSync(file('err'), answer?.stderr ?? '');
    // The code last, by rename: the shim reads out and err once it sees the code.
    const fd = openSync(file('code.part'), 'w');
    try {
      writeSync(fd, `${answer === undefined ? FALLBACK : answer.code}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(file('code.part'), file('code'));
  }

  /**
   * Answers what is waiting, then stops. The `closed` mark tells a shim to run debussy itself; a
   * shim whose request arrived after the last drain takes it back when it sees the mark.
   */
  close(): void {
    if (this.closed) return;
    this.drain();
    this.closed = true;
    this.watcher?.close();
    if (this.rescan) clearInterval(this.rescan);
    try {
      writeFileSync(path.join(this.dir, CLOSED_MARK), `${process.pid}\n`);
    } catch {
      /* the run directory is gone: shims find no inbox and run debussy themselves */
    }
  }
}
