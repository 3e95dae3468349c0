/**
 * `debussy logs [RUN]`: the session logs of a run, in the order the sessions started, each under a
 * header; `--raw` gives claude's stream-json instead, `--follow` keeps printing until the run ends.
 * The logs hold the agent's words and its tools' output: the text is printed inert, the raw
 * stream with the controls JSON leaves raw escaped (text/inert-text.ts).
 */
import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateError, UsageError } from '../../errors/index.js';
import {
  isValidRunId,
  latestRun,
  listRuns,
  loadRun,
  readJournal,
  readRunLock,
  type AttemptStartedEvent,
  type JournalEvent,
  type RunSummary,
  type SessionEndedEvent,
  type SessionStartedEvent,
} from '../../state/index.js';
import { projectRootForCommand } from '../active-run.js';
import { READABLE_LOG_SUFFIX, RAW_LOG_SUFFIX, sessionLogBase } from '../../agent/session-logs.js';
import { inertJson, inertLine, inertText } from '../../text/inert-text.js';

interface LogsOptions {
  phase?: string;
  follow?: boolean;
  raw?: boolean;
  json?: boolean;
}

interface SessionLog {
  phaseId: string;
  /** File name without its extension, as the session runner names it: `<phase>-<NN>`. */
  base: string;
  header: string;
  /** What the journal says of it, for --json; absent for a log the journal does not mention. */
  start?: SessionStartedEvent;
  attempt?: AttemptStartedEvent;
  end?: SessionEndedEvent;
}

const FOLLOW_POLL_MS = 300;
const RUNS_LISTED = 10;

export default async function logsCommand(runArg: string | undefined, options: LogsOptions): Promise<number> {
  if (options.json && options.follow) throw new UsageError('--json and --follow cannot be combined', 'Use --json for the sessions so far, or --follow to watch a run as text.');
  const root = await projectRootForCommand(process.env);
  const run = await pickRun(root, runArg);
  const suffix = options.raw ? RAW_LOG_SUFFIX : READABLE_LOG_SUFFIX;
  const journal = path.join(run.dir, 'journal.ndjson');
  const sessionsDir = path.join(run.dir, 'sessions');

  let events = (await readJournal(journal)).events;
  if (options.phase !== undefined) requirePhase(run, options.phase, await listSessions(events, sessionsDir, suffix));
  const wanted = async (): Promise<SessionLog[]> => {
    const all = await listSessions(events, sessionsDir, suffix);
    return options.phase === undefined ? all : all.filter((session) => session.phaseId === options.phase);
  };

  if (options.json) return printJson(run, await wanted(), sessionsDir, suffix);

  const out = new Output();
  out.attach();
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  // Ctrl-C ends following cleanly (with what was written so far); otherwise it keeps its default.
  if (options.follow) process.once('SIGINT', onInterrupt);
  try {
    // Raw output stays pure NDJSON on stdout (for jq and friends): headers go to stderr.
    const printer = new LogPrinter(sessionsDir, suffix, out, options.raw === true);
    if (!options.raw) await out.write(process.stdout, `Run ${run.runId}${run.state ? `: ${inertLine(run.state.planName)} (${inertLine(run.state.planPath)})` : ''}\n`);
    if (options.follow) {
      let journalSize = await fileSize(journal);
      for (;;) {
        await printer.drain(await wanted(), false);
        if (stop.signal.aborted || out.closed || !(await runIsLive(root, run.runId, events))) break;
        await sleep(FOLLOW_POLL_MS, undefined, { signal: stop.signal }).catch(() => undefined);
        const size = await fileSize(journal);
        if (size !== journalSize) {
          journalSize = size;
          events = (await readJournal(journal)).events;
        }
      }
      // Whatever was written between the last poll and the end.
      events = (await readJournal(journal)).events;
    }
    await printer.drain(await wanted(), true);
    if (printer.printedSessions === 0) await out.write(options.raw ? process.stderr : process.stdout, noSessionsMessage(run.runId, options.phase));
    return 0;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    out.detach();
  }
}

async function pickRun(root: string, runArg: string | undefined): Promise<RunSummary> {
  if (runArg === undefined) {
    const latest = await latestRun(root);
    if (latest) return latest;
    throw new StateError('E_NO_RUNS', 'no runs in this project yet, so there are no logs to show', {
      hint: 'Start one with `debussy run PLAN`; each run keeps its session logs under .debussy/runs/.',
    });
  }
  const run = isValidRunId(runArg) ? await loadRun(root, runArg) : undefined;
  if (run) return run;
  const ids = (await listRuns(root)).map((r) => r.runId);
  const listed = ids.slice(0, RUNS_LISTED).join(', ') + (ids.length > RUNS_LISTED ? `, ... (${ids.length - RUNS_LISTED} more)` : '');
  throw new UsageError(`no run "${runArg}" in this project`, ids.length === 0 ? 'There are no runs yet.' : `Runs, newest first: ${listed}`);
}

function requirePhase(run: RunSummary, phaseId: string, sessions: SessionLog[]): void {
  const known = [...new Set([...(run.state?.phaseOrder ?? []), ...sessions.map((s) => s.phaseId)])];
  if (!known.includes(phaseId)) {
    throw new UsageError(`run ${run.runId} has no phase "${phaseId}"`, known.length === 0 ? 'This run has no phases.' : `Phases: ${known.join(', ')}`);
  }
}

function noSessionsMessage(runId: string, phaseId: string | undefined): string {
  return phaseId === undefined ? `No session logs in run ${runId}.\n` : `No session logs for phase ${phaseId} in run ${runId}.\n`;
}

/** Live while the run's own process holds the lock and the journal has not recorded its end. */
async function runIsLive(root: string, runId: string, events: JournalEvent[]): Promise<boolean> {
  if (events.some((event) => event.type === 'run_ended')) return false;
  try {
    const lock = await readRunLock(root);
    return lock !== undefined && lock.alive && lock.runId === runId;
  } catch {
    // An unreadable lock holds no run we could follow.
    return false;
  }
}

/**
 * Sessions in the order they started, from the journal; then log files the journal does not
 * mention (a journal cut short by a crash), by name.
 */
async function listSessions(events: JournalEvent[], sessionsDir: string, suffix: string): Promise<SessionLog[]> {
  const attempts = new Map<string, AttemptStartedEvent>();
  const ends = new Map<string, SessionEndedEvent>();
  const titles = new Map<string, string>();
  const starts: SessionStartedEvent[] = [];
  for (const event of events) {
    if (event.type === 'attempt_started') attempts.set(event.attemptId, event);
    else if (event.type === 'session_ended') ends.set(`${event.phaseId}\n${event.sessionIndex}`, event);
    else if (event.type === 'phase_started') titles.set(event.phaseId, event.title);
    else if (event.type === 'session_started') starts.push(event);
  }

  const sessions: SessionLog[] = [];
  const seen = new Set<string>();
  for (const start of starts) {
    // The journal's path may be absolute from before the project moved: only its name counts.
    const base = start.logPath === undefined ? sessionLogBase(start.phaseId, start.sessionIndex) : path.basename(start.logPath, READABLE_LOG_SUFFIX);
    if (seen.has(base)) continue;
    seen.add(base);
    const end = ends.get(`${start.phaseId}\n${start.sessionIndex}`);
    const attempt = attempts.get(start.attemptId);
    sessions.push({ phaseId: start.phaseId, base, header: sessionHeader(start, attempt, end, titles.get(start.phaseId)), start, ...(attempt ? { attempt } : {}), ...(end ? { end } : {}) });
  }

  let names: string[] = [];
  try {
    names = await readdir(sessionsDir);
  } catch {
    // No sessions folder yet: no session has started.
  }
  for (const name of names.filter((n) => n.endsWith(suffix)).sort()) {
    const base = name.slice(0, -suffix.length);
    if (seen.has(base)) continue;
    const phaseId = /^(.*)-\d+$/.exec(base)?.[1] ?? base;
    sessions.push({ phaseId, base, header: `==> ${inertLine(name)} (not in the run's journal) <==` });
  }
  return sessions;
}

/**
 * `logs --json`: one object per session (NDJSON), in the order they started, each with its log's
 * text (docs/output.md).
 */
async function printJson(run: RunSummary, sessions: SessionLog[], sessionsDir: string, suffix: string): Promise<number> {
  const out = new Output();
  out.attach();
  try {
    for (const session of sessions) {
      const file = path.join(sessionsDir, session.base + suffix);
      let text: string | null = null;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        // Started, but its log is missing: text null.
      }
      const row = {
        runId: run.runId,
        phaseId: session.phaseId,
        session: session.base,
        sessionIndex: session.start?.sessionIndex ?? null,
        attempt: session.attempt ? { kind: session.attempt.kind, attemptId: session.attempt.attemptId } : null,
        startedAt: session.start?.ts ?? null,
        ended: session.end ? { outcome: session.end.outcome, durationMs: session.end.durationMs, peakContextPercent: session.end.peakContextPercent } : null,
        inJournal: session.start !== undefined,
        file,
        text,
      };
      await out.write(process.stdout, `${inertJson(JSON.stringify(row))}\n`);
      if (out.closed) break;
    }
    return 0;
  } finally {
    out.detach();
  }
}

function sessionHeader(start: SessionStartedEvent, attempt: AttemptStartedEvent | undefined, end: SessionEndedEvent | undefined, title: string | undefined): string {
  const parts = [`phase ${start.phaseId}${title !== undefined && title !== start.phaseId ? ` "${title}"` : ''}`, `session ${String(start.sessionIndex).padStart(2, '0')}`];
  if (attempt !== undefined) {
    const count = attempt.kind === 'restart' ? ` ${attempt.restart}` : attempt.kind === 'retry' ? ` ${attempt.retry}` : '';
    parts.push(`${attempt.kind}${count}`);
  }
  parts.push(`started ${start.ts}`);
  if (end === undefined) {
    parts.push('not ended');
  } else {
    parts.push(`ended ${end.outcome}, after ${formatSeconds(end.durationMs)}, peak context ${Math.round(end.peakContextPercent)}%`);
  }
  return inertLine(`==> ${parts.join(' · ')} <==`);
}

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return -1;
  }
}

/**
 * Prints each session's file from where it last stopped. Only whole lines are printed until the
 * end (`final`), so a header never lands in the middle of a line being written, and a character
 * is never cut in two.
 */
class LogPrinter {
  private readonly offsets = new Map<string, number>();
  private readonly partial = new Map<string, Buffer>();
  private readonly headed = new Set<string>();
  private current: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly suffix: string,
    private readonly out: Output,
    /** The raw stream: headers go to stderr, stdout stays NDJSON. */
    private readonly raw: boolean,
  ) {}

  get printedSessions(): number {
    return this.headed.size;
  }

  async drain(sessions: SessionLog[], final: boolean): Promise<void> {
    for (const session of sessions) {
      if (this.out.closed) return;
      await this.drainOne(session, final);
    }
  }

  private async drainOne(session: SessionLog, final: boolean): Promise<void> {
    const file = path.join(this.dir, session.base + this.suffix);
    const from = this.offsets.get(session.base) ?? 0;
    const size = await fileSize(file);
    if (size < 0) {
      // Started, but its log is missing: said once, at the end.
      if (final && !this.headed.has(session.base)) await this.header(session, ' (no log file)');
      return;
    }
    let pending = this.partial.get(session.base) ?? Buffer.alloc(0);
    if (size > from) {
      this.offsets.set(session.base, size);
      for await (const chunk of createReadStream(file, { start: from, end: size - 1 }) as AsyncIterable<Buffer>) {
        pending = Buffer.concat([pending, chunk]);
        const cut = pending.lastIndexOf(NEWLINE) + 1;
        if (cut > 0) {
          await this.print(session, pending.subarray(0, cut).toString('utf8'));
          pending = pending.subarray(cut);
        }
        if (this.out.closed) return;
      }
    }
    if (final && pending.length > 0) {
      await this.print(session, `${pending.toString('utf8')}\n`);
      pending = Buffer.alloc(0);
    }
    if (final && !this.headed.has(session.base)) await this.header(session, ' (empty)');
    this.partial.set(session.base, pending);
  }

  /** Whole lines of a log: the readable log inert (one written before debussy made it so may hold anything), the raw stream's JSON escaped. */
  private async print(session: SessionLog, text: string): Promise<void> {
    if (this.current !== session.base) await this.header(session, this.headed.has(session.base) ? ' (continued)' : '');
    await this.out.write(process.stdout, this.raw ? inertJson(text) : inertText(text));
  }

  private async header(session: SessionLog, remark: string): Promise<void> {
    this.current = session.base;
    const first = this.headed.size === 0;
    this.headed.add(session.base);
    await this.out.write(this.raw ? process.stderr : process.stdout, `${first ? '' : '\n'}${session.header}${remark}\n`);
  }
}

const NEWLINE = 0x0a;

/**
 * Writing that waits when a stream is full, so a long log never piles up in memory, and that
 * stops quietly once the reader has gone (`debussy logs | head`).
 */
class Output {
  closed = false;
  private readonly onError = (): void => {
    this.closed = true;
  };

  attach(): void {
    process.stdout.on('error', this.onError);
    process.stderr.on('error', this.onError);
  }

  detach(): void {
    process.stdout.removeListener('error', this.onError);
    process.stderr.removeListener('error', this.onError);
  }

  async write(stream: NodeJS.WriteStream, text: string): Promise<void> {
    if (this.closed || stream.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.removeListener('drain', done);
        stream.removeListener('error', done);
        stream.removeListener('close', done);
        resolve();
      };
      stream.once('drain', done);
      stream.once('error', done);
      stream.once('close', done);
    });
  }
}
