/**
 * One run of the claude CLI: spawned with the prompt on stdin, its stdout parsed into events as
 * it arrives, logged, and stopped gracefully on request. Whatever way it ends, no process of the
 * session is left behind. It reports what happened; the caller decides what to do about it.
 */
import { randomUUID } from 'node:crypto';
import type { DebussyError } from '../../errors/index.js';
import { processStartTime } from '../../process/identity.js';
import { tailText } from '../../redact/index.js';
import type { AgentSession, SessionBasics, SessionEnd } from '../agent-session.js';
import { formatCount } from '../../text/format-count.js';
import type { AgentEvent, ApiErrorEvent, ApiRetryEvent, ResultEvent } from '../agent-events.js';
import { launchProblem, spawnFailure } from '../agent-launch.js';
import { nativeBinaryMissing, saysNativeBinaryMissing } from './claude-install.js';
import { spawnAgentProcess, type AgentProcess } from '../agent-process.js';
import { EventQueue } from '../event-queue.js';
import { finishReading, maxStreamLineBytes, readLineBytesBatches } from '../line-reader.js';
import { sessionOutcomeOf } from '../session-outcome.js';
import { SessionLogs } from '../session-logs.js';
import { SESSION_MARKER_VAR, SessionProcesses } from '../session-processes.js';
import { StopEscalation } from '../stop-escalation.js';
import { debussyHooks, settingsError, withSessionSettings } from './session-settings.js';
import { createStopGuard, STOP_REFUSAL, type StopGuard } from '../stop-guard.js';
import { newStreamParseState, parseStreamLine, type StreamParseState } from './stream-parser.js';

export { buildClaudeArgs } from './claude-args.js';
export type { SessionOutcome } from '../agent-session.js';
export type { AgentSession, SessionEnd, StopCause } from '../agent-session.js';
export { apiErrorMessage } from '../agent-session.js';

export interface AgentSessionOptions extends SessionBasics {
  command: string;
  args: string[];
  /**
   * Add debussy's hooks (session-settings.ts): a PreToolUse hook that blocks tools once a stop is
   * decided, and a PreCompact hook that refuses claude's own compaction. Default true; merged with
   * a `--settings` already in `args`. Turn off for commands that are not claude.
   */
  stopGuard?: boolean;
  /** How long a stop waits for a response that is still streaming to finish. Default 30000. */
  responseDrainMs?: number;
}

const DEFAULT_STOP_GRACE_MS = 5_000;
const DEFAULT_RESPONSE_DRAIN_MS = 30_000;
const STDERR_TAIL_CHARS = 4_096;

export function startAgentSession(options: AgentSessionOptions): AgentSession {
  return new ClaudeSession(options);
}

interface Queued {
  event: AgentEvent;
  /** Which request/response of the session the reader was at when this event came. */
  turn: number;
}

function noop(): void {}

/** Tools that run tool calls of their own (subagents), each checked by the PreToolUse hook. */
const NESTING_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent', 'Workflow']);

class ClaudeSession implements AgentSession {
  readonly pid: number;
  readonly marker: string;
  readonly startTime: number | undefined;
  readonly ended: Promise<SessionEnd>;

  private readonly options: AgentSessionOptions;
  private readonly startedAt = Date.now();
  private readonly graceMs: number;
  private readonly queue = new EventQueue<Queued>();
  private readonly state: StreamParseState;
  private readonly logs: SessionLogs;
  private readonly guard: StopGuard | undefined;
  private readonly processes: SessionProcesses | undefined;
  private readonly escalation: StopEscalation | undefined;
  private readerTurn = 0;
  /** Turn of the last event handed to the events() consumer; undefined while nobody iterates. */
  private deliveredTurn: number | undefined;
  /** Turn of the event being handed to onEvent, while that callback runs. */
  private callbackTurn: number | undefined;
  private result: ResultEvent | undefined;
  private lastApiError: ApiErrorEvent | undefined;
  private lastRetry: ApiRetryEvent | undefined;
  private sessionId: string | undefined;
  private stderrTail = '';
  private linesRead = 0;
  private hooksOffNoted = false;
  private stopRequested = false;
  private stopReason: string | undefined;
  /** The turn the caller was at when it asked for a graceful stop. */
  private stopTurn = 0;
  private stopSignalled = false;
  /** The guard was armed for the stop turn's own tools, before the stop itself goes out. */
  private stopTurnGuarded = false;
  /** The guard refused a tool call: claude was told the session is stopping. */
  private guardRefused = false;
  /** Top-level tools by id: a turn running a tool that runs tool calls of its own is not guarded early. */
  private readonly toolNames = new Map<string, string>();
  private killRequested = false;
  private finished = false;

  constructor(options: AgentSessionOptions) {
    this.options = options;
    this.graceMs = Math.max(0, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    this.logs = new SessionLogs(options.rawLogPath, options.readableLogPath, options.redact, options.onLogFailure);
    this.state = newStreamParseState(options.redact);
    const marker = randomUUID();
    this.marker = marker;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
    env[SESSION_MARKER_VAR] = marker;

    const problem = launchProblem(options.command, options.cwd, env.PATH);
    const guard = problem === undefined && options.stopGuard !== false ? createStopGuard(marker) : undefined;
    // One --settings: the user's own (from args) with debussy's hooks merged in.
    const settings = guard === undefined ? { args: options.args } : withSessionSettings(options.args, options.cwd, debussyHooks(guard.stopFile, guard.answerFile));
    // Compaction stays off where debussy's PreCompact hook does not run (--bare; measured with
    // 2.1.332: a prompt-too-long then ends the session instead of a summary replacing its history).
    if (guard !== undefined) env.DISABLE_COMPACT = '1';
    this.guard = 'args' in settings ? guard : undefined;
    const args = 'args' in settings ? settings.args : options.args;
    let child: AgentProcess | undefined;
    let failure: DebussyError | undefined = problem ?? ('problem' in settings ? settingsError(settings.problem) : undefined);
    if (failure === undefined) {
      try {
        // Its own process group: a Ctrl-C at the terminal reaches debussy, which stops the session
        // in order, instead of reaching claude directly.
        child = spawnAgentProcess(options.command, args, { cwd: options.cwd, env, prompt: options.prompt, graceMs: this.graceMs });
      } catch (error) {
        failure = spawnFailure(options.command, error);
      }
    }
    this.pid = child?.pid ?? 0;
    this.startTime = child?.pid === undefined ? undefined : processStartTime(child.pid);
    if (child === undefined || child.pid === undefined) {
      this.processes = undefined;
      this.escalation = undefined;
      this.ended = this.failToStart(child, failure);
    } else {
      this.escalation = new StopEscalation(child, this.graceMs, (text) => this.logs.note(text));
      this.processes = new SessionProcesses({ pid: child.pid, ...(this.startTime === undefined ? {} : { startTime: this.startTime }) }, marker);
      this.ended = this.run(child);
    }
    this.ended.catch(noop); // the caller may only iterate events(); the error reaches it there
  }

  events(): AsyncIterable<AgentEvent> {
    const items = this.queue.iterate();
    this.deliveredTurn = 0;
    const events: AsyncIterableIterator<AgentEvent> = {
      next: async () => {
        const item = await items.next();
        if (item.done === true) return { value: undefined, done: true };
        this.deliveredTurn = item.value.turn;
        return { value: item.value.event, done: false };
      },
      return: async () => {
        await items.return?.();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return events;
  }

  hooksAnswered(): boolean | undefined {
    if (this.guard === undefined) return undefined;
    const answered = this.guard.answered();
    if (!answered && !this.hooksOffNoted) {
      this.hooksOffNoted = true;
      this.logs.note("debussy's hooks did not answer (SessionStart): no stop guard in this session; a stop is SIGINT, then SIGTERM and SIGKILL");
    }
    return answered;
  }

  requestStop(reason: string, options: { immediate?: boolean } = {}): void {
    if (this.finished || this.killRequested) return;
    if (this.stopRequested) {
      // A second, more urgent request (an interrupt during a graceful stop) may cut the wait short.
      if (options.immediate === true) this.sendStop('an immediate stop was requested');
      return;
    }
    this.stopRequested = true;
    this.stopReason = reason;
    this.logs.note(`stop requested: ${reason}`);
    if (options.immediate === true) {
      this.sendStop('an immediate stop was requested');
      return;
    }
    this.stopTurn = this.callbackTurn ?? this.deliveredTurn ?? this.readerTurn;
    this.stopWhenTurnIsDone();
    if (!this.stopSignalled && this.state.responseOpen) {
      this.escalation?.after(this.options.responseDrainMs ?? DEFAULT_RESPONSE_DRAIN_MS, () => {
        if (this.state.responseOpen) this.sendStop('the response did not finish in time');
      });
    }
  }

  async kill(reason: string): Promise<void> {
    if (!this.finished && !this.killRequested && this.escalation !== undefined) {
      this.killRequested = true;
      this.logs.note(`kill: ${reason}`);
      this.escalation.send('SIGKILL');
    }
    await this.ended.then(noop, noop);
  }

  private async failToStart(child: AgentProcess | undefined, failure: DebussyError | undefined): Promise<SessionEnd> {
    let error = failure;
    if (error === undefined) {
      // The process has no pid: execa's result says why.
      const result = await child;
      error = spawnFailure(this.options.command, result?.cause ?? new Error(result?.shortMessage ?? 'no process was started'));
    }
    this.finished = true;
    this.logs.note(`could not start: ${error.message}`);
    await this.logs.close();
    this.queue.end({ error });
    throw error;
  }

  private async run(child: AgentProcess): Promise<SessionEnd> {
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    child.on('error', noop); // a failed kill() after exit; the start itself was checked
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2 * STDERR_TAIL_CHARS);
    });
    this.processes?.start();

    const pumped = this.pump(child);
    const exit = await exited;
    this.finished = true;
    this.escalation?.processExited();
    this.queue.stopBackpressure();
    await finishReading(pumped, child.stdout);
    // claude's npm launcher without its native binary prints one error and no stream (claude-install.ts):
    // every session would end so, so it is a missing prerequisite, not a crash to retry.
    const installProblem = this.linesRead === 0 && exit.code !== 0 && saysNativeBinaryMissing(this.stderrTail) ? nativeBinaryMissing(this.options.command) : undefined;
    this.queue.end(installProblem === undefined ? undefined : { error: installProblem });

    const leftoverProcessesKilled = (await this.processes?.terminateLeftovers(this.killRequested ? 0 : this.graceMs)) ?? 0;
    this.guard?.dispose();
    if (installProblem !== undefined) {
      this.logs.note(`could not run: ${installProblem.message}`);
      await this.logs.close();
      throw installProblem;
    }
    const outcome = sessionOutcomeOf({
      result: this.result,
      stopSignalled: this.stopSignalled,
      killRequested: this.killRequested,
      apiErrorSeen: this.lastApiError !== undefined,
      guardRefused: this.guardRefused,
    });
    const end: SessionEnd = {
      outcome,
      exitCode: exit.code,
      signal: exit.signal,
      ...(this.result === undefined ? {} : { result: this.result }),
      sawResult: this.result !== undefined,
      stopRequested: this.stopRequested,
      ...(this.stopReason === undefined ? {} : { stopReason: this.stopReason }),
      unparsedLines: this.state.unparsedLines,
      // From a whole line: the journal and messages redact it, and a cut secret would not be known.
      stderrTail: tailText(this.stderrTail, STDERR_TAIL_CHARS),
      ...(this.lastApiError === undefined ? {} : { lastApiError: this.lastApiError }),
      ...(this.lastRetry === undefined ? {} : { lastRetry: this.lastRetry }),
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      durationMs: Date.now() - this.startedAt,
      leftoverProcessesKilled,
      streamTokens: { ...this.state.streamTokens },
      incompleteLogs: [],
    };
    this.logs.note(
      `session ended: ${outcome} (exit ${exit.code ?? exit.signal ?? '?'}${end.sawResult ? '' : ', no result line'}${leftoverProcessesKilled > 0 ? `, ${leftoverProcessesKilled} leftover processes ended` : ''})`,
    );
    await this.logs.close();
    // Known only now: the last lines are written by close().
    end.incompleteLogs = this.logs.incomplete();
    return end;
  }

  private async pump(child: AgentProcess): Promise<void> {
    const onSkipped = (bytes: number) => {
      this.logs.note(`debussy: skipped a stream line of ${formatCount(bytes)} bytes: longer than the ${formatCount(maxStreamLineBytes())} bytes debussy can hold as text`);
    };
    for await (const batch of readLineBytesBatches(child.stdout, { onSkipped })) {
      for (let i = 0; i < batch.lines.length; i++) {
        const line = batch.lines[i] as string;
        this.linesRead += 1;
        this.logs.rawLine(line, batch.bytes[i]);
        for (const event of parseStreamLine(line, this.state)) this.handle(event);
        this.stopWhenTurnIsDone();
      }
      if (!this.logs.flush()) await this.logs.drained();
      await this.queue.room();
    }
  }

  /** Records, logs and hands on one event. */
  private handle(event: AgentEvent): void {
    if (event.type === 'request_started' || event.type === 'usage') this.readerTurn += 1;
    else if (event.type === 'tool_start' && event.parentToolUseId === undefined) this.toolNames.set(event.toolUseId, event.name);
    else if (event.type === 'tool_result' && event.isError && this.stopRequested && event.text.includes(STOP_REFUSAL)) this.guardRefused = true;
    else if (event.type === 'result') {
      this.result = event;
      this.sessionId = event.sessionId ?? this.sessionId;
    } else if (event.type === 'api_error') this.lastApiError = event;
    else if (event.type === 'api_retry') this.lastRetry = event;
    else if (event.type === 'init') this.sessionId = event.sessionId;
    this.logs.event(event);
    this.callbackTurn = this.readerTurn;
    try {
      this.options.onEvent?.(event);
    } catch (error) {
      // A consumer's bug must not stop the reading: claude would block on a full pipe.
      this.logs.note(`onEvent threw: ${String(error)}`);
    } finally {
      this.callbackTurn = undefined;
    }
    this.queue.push({ event, turn: this.readerTurn });
  }

  /**
   * Once the stop turn's response has ended, its tools are known: the guard is armed at once,
   * letting through those tools alone (by tool_use_id), so a later turn's tool is refused even if
   * debussy is starved of the CPU when claude asks for it (the stop itself goes out once the turn
   * is done). A turn running a subagent (whose own tool calls have ids debussy learns only as they
   * run) is guarded as before, when the stop goes out.
   */
  private guardStopTurn(): void {
    if (this.stopTurnGuarded || this.guard === undefined || this.readerTurn !== this.stopTurn || this.state.responseOpen) return;
    const running = [...this.state.pendingToolUseIds];
    if (running.length === 0) return;
    this.stopTurnGuarded = true;
    const nesting = running.map((id) => this.toolNames.get(id)).filter((name) => name !== undefined && NESTING_TOOLS.has(name));
    if (nesting.length > 0) {
      this.logs.note(`stop guard: the stop turn runs ${nesting.join(', ')}, whose own tool calls are let through until the turn is done`);
      return;
    }
    this.guard.arm(running);
  }

  /** A graceful stop goes out once the turn it was asked in is done, and never later. */
  private stopWhenTurnIsDone(): void {
    if (!this.stopRequested || this.stopSignalled || this.finished) return;
    this.guardStopTurn();
    if (this.readerTurn > this.stopTurn) {
      // A new request or response began (the caller may have been behind the stream): whatever
      // runs now is work of a later turn.
      this.sendStop('a turn after the one that asked for the stop has begun');
    } else if (this.state.pendingToolUseIds.size === 0 && !this.state.responseOpen) {
      this.sendStop('no tool of the turn is running');
    }
  }

  private sendStop(why: string): void {
    if (this.stopSignalled || this.finished) return;
    this.stopSignalled = true;
    this.guard?.arm();
    this.logs.note(`stopping (${why}): SIGINT`);
    this.escalation?.start();
  }
}
