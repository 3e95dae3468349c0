/**
 * One debussy session through `gemini --output-format stream-json`: one process, the prompt on its
 * stdin, a home of the session's own (gemini-home.ts). Its stream becomes AgentEvents
 * (stream-events.ts) as it arrives; each call's usage comes from gemini's chat file, followed as
 * gemini appends to it (chat-file.ts); the session stops gracefully on request (gemini-stop.ts: the
 * stop call's tools finish, then the BeforeTool guard is armed and gemini is sent SIGTERM). Whatever
 * way it ends, no process of the session is left behind: gemini leaves a running shell in a
 * process group of its own, which the session ends. It has the shape of the claude session.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { DebussyError } from '../../errors/index.js';
import type { AgentEvent, ApiErrorEvent, ApiRetryEvent, ResultEvent } from '../agent-events.js';
import { classifyGeminiError, RetryNoticeReader } from './gemini-errors.js';
import type { AgentSession, SessionBasics, SessionEnd } from '../agent-session.js';
import { newTotals, resultEvent, type CallTotals } from '../call-usage.js';
import { EventQueue } from '../event-queue.js';
import { ConsumerCalls } from '../consumer-calls.js';
import { readLineBytesBatches } from '../line-reader.js';
import { sessionOutcomeOf } from '../session-outcome.js';
import { SessionLogs } from '../session-logs.js';
import { SpawnedAgent } from '../spawned-agent.js';
import { createStopGuard, type StopGuard } from '../stop-guard.js';
import { chatLineEvents, newChatFileState, type ChatFileState } from './chat-file.js';
import { ChatFileFollower } from './chat-follower.js';
import { createGeminiHome, type GeminiHome } from './gemini-home.js';
import { geminiArgs, geminiEnv, geminiPermissions, type PermissionModeName } from './gemini-launch.js';
import { geminiStopStep, geminiToolFingerprint, isGeminiToolFingerprint } from './gemini-stop.js';
import { newGeminiStreamState, parseGeminiLine, type GeminiStreamState } from './stream-events.js';

export const GEMINI_INSTALL_HINT = 'Install the Gemini CLI (npm install -g @google/gemini-cli) or set gemini_command in the config to its full path.';

export interface GeminiSessionOptions extends SessionBasics {
  /** `gemini` on PATH, or the configured command. */
  command: string;
  model?: string;
  permissionMode?: PermissionModeName;
  toolRules?: { allowed: number; disallowed: number };
  /** model.compressionThreshold for the session (above debussy's stop point). */
  compressionThreshold?: number;
  /** The user's own flags (gemini_args). */
  extraArgs?: readonly string[];
  /** Continue this saved session (--resume) instead of starting one. */
  resumeSessionId?: string;
}

const DEFAULT_STOP_GRACE_MS = 5_000;
/** How often the chat file is looked at for new calls (it is also read after each stdout batch). */
const CHAT_POLL_MS = 100;
/** A stop with no tool running signals after this: a late tool_use of the stop's own call is refused by the guard meanwhile. */
const STOP_SETTLE_MS = 250;

export function startGeminiSession(options: GeminiSessionOptions): AgentSession {
  return new GeminiSession(options);
}

function noop(): void {}

class GeminiSession implements AgentSession {
  readonly pid: number;
  readonly marker = randomUUID();
  readonly startTime: number | undefined;
  readonly ended: Promise<SessionEnd>;

  private readonly graceMs: number;
  private readonly sessionId: string;
  private readonly queue = new EventQueue<AgentEvent>();
  private readonly stream: GeminiStreamState;
  private readonly totals: CallTotals;
  private readonly chat: ChatFileState = newChatFileState();
  private readonly logs: SessionLogs;
  private readonly guard: StopGuard;
  private readonly home: GeminiHome | undefined;
  private readonly agent: SpawnedAgent;
  private readonly chatFile: ChatFileFollower | undefined;
  private readonly chatLinesRead: string[] = [];
  private lastApiError: ApiErrorEvent | undefined;
  private lastRetry: ApiRetryEvent | undefined;
  private readonly retries = new RetryNoticeReader();
  private stop = { requested: false, immediate: false, reason: undefined as string | undefined, atCall: 0, toolsRunning: false, settleExpired: false, settleStarted: false, guardArmed: false, resultsAtStop: 0 };
  /** The stop call's tools, which the armed guard lets through (by id, and their fingerprints in order). */
  private readonly allowed = { ids: new Set<string>(), fingerprints: [] as string[] };
  private signalled = false;
  private readonly consumer = new ConsumerCalls();

  constructor(private readonly options: GeminiSessionOptions) {
    this.graceMs = Math.max(0, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    this.sessionId = options.resumeSessionId ?? randomUUID();
    this.logs = new SessionLogs(options.rawLogPath, options.readableLogPath, options.redact, options.onLogFailure);
    this.stream = newGeminiStreamState({ ...(options.redact === undefined ? {} : { redact: options.redact }), cwd: options.cwd });
    this.totals = newTotals(options.priceCall);
    this.guard = createStopGuard(this.marker, isGeminiToolFingerprint);
    const permissions = geminiPermissions(options.permissionMode, options.toolRules);
    for (const note of permissions.notes) this.logs.note(`gemini: ${note}`);
    let home: GeminiHome | undefined;
    this.agent = new SpawnedAgent({
      command: options.command, cwd: options.cwd, env: options.env, marker: this.marker, installHint: GEMINI_INSTALL_HINT,
      prepare: (env) => {
        home = createGeminiHome({ env: options.env, marker: this.marker, stopFile: this.guard.stopFile, ...(options.compressionThreshold === undefined ? {} : { compressionThreshold: options.compressionThreshold }) });
        for (const note of home.notes) this.logs.note(`gemini: ${note}`);
        const args = geminiArgs({ ...(options.model === undefined ? {} : { model: options.model }), sessionId: this.sessionId, resume: options.resumeSessionId !== undefined, approvalMode: permissions.approvalMode, ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }) });
        return { args, env: geminiEnv(env, home.dir) };
      },
    });
    this.home = home;
    // A resumed session's earlier calls are in the file already: they are not this session's.
    this.chatFile = home === undefined ? undefined : new ChatFileFollower(home.geminiDir, this.sessionId, options.resumeSessionId !== undefined);
    this.pid = this.agent.pid;
    this.startTime = this.agent.startTime;
    const child = this.agent.child;
    if (child === undefined) {
      this.home?.dispose();
      this.ended = this.failToStart(this.agent.failure as DebussyError);
    } else {
      this.ended = this.run(child);
    }
    this.ended.catch(noop);
  }

  events(): AsyncIterable<AgentEvent> {
    return this.consumer.iterate(this.queue);
  }

  requestStop(reason: string, options: { immediate?: boolean } = {}): void {
    if (this.agent.exited || this.agent.killRequested) return;
    if (!this.stop.requested) {
      const toolsRunning = this.stream.pendingTools.size > 0;
      this.stop = { ...this.stop, requested: true, reason, atCall: this.consumer.at(this.totals.calls), toolsRunning, resultsAtStop: this.stream.toolResults };
      this.logs.note(`stop requested: ${reason}`);
    }
    if (options.immediate === true) this.stop.immediate = true;
    this.advance();
  }

  async kill(reason: string): Promise<void> {
    if (this.agent.kill()) this.logs.note(`kill: ${reason}`);
    await this.ended.then(noop, noop);
  }

  private async failToStart(error: DebussyError): Promise<SessionEnd> {
    this.logs.note(`could not start: ${error.message}`);
    await this.logs.close();
    this.queue.end({ error });
    throw error;
  }

  private async run(child: ChildProcessWithoutNullStreams): Promise<SessionEnd> {
    // gemini announces its own retries on stderr only.
    const exited = this.agent.watch(child, (chunk) => this.readRetries(chunk));
    child.stdin.end(this.options.prompt);
    const poll = setInterval(() => this.readChatSoon(), CHAT_POLL_MS);
    const pumped = this.pump(child);
    const exit = await exited;
    clearInterval(poll);
    this.queue.stopBackpressure();
    await this.agent.finishReading(pumped);
    // The chat file is whole once gemini has exited: the last calls' usage comes before the result.
    this.readChat();
    const result = this.resultEvent();
    if (result !== undefined) this.handle(result);
    this.queue.end();
    const leftoverProcessesKilled = await this.agent.endLeftovers(this.graceMs);
    this.guard.dispose();
    this.home?.dispose();
    const outcome = sessionOutcomeOf({ result, stopSignalled: this.signalled || this.stop.guardArmed, killRequested: this.agent.killRequested, apiErrorSeen: this.lastApiError !== undefined });
    const end: SessionEnd = {
      outcome,
      ...this.agent.endFields(exit, leftoverProcessesKilled),
      ...(result === undefined ? {} : { result }),
      sawResult: result !== undefined,
      stopRequested: this.stop.requested,
      ...(this.stop.reason === undefined ? {} : { stopReason: this.stop.reason }),
      unparsedLines: this.stream.unparsedLines,
      ...(this.lastApiError === undefined ? {} : { lastApiError: this.lastApiError }),
      ...(this.lastRetry === undefined ? {} : { lastRetry: this.lastRetry }),
      sessionId: this.stream.sessionId ?? this.sessionId,
      streamTokens: { input: this.totals.uncachedInput, output: this.totals.output },
      incompleteLogs: [],
    };
    this.logs.note(`session ended: ${outcome} (exit ${exit.code ?? exit.signal ?? '?'}${end.sawResult ? '' : ', no result'}${leftoverProcessesKilled > 0 ? `, ${leftoverProcessesKilled} leftover processes ended` : ''})`);
    await this.logs.close();
    end.incompleteLogs = this.logs.incomplete();
    return end;
  }

  /** The run's end as debussy's result event: gemini's status, the hook's stop, the failure classified. */
  private resultEvent(): ResultEvent | undefined {
    const runEnd = this.stream.runEnd;
    if (runEnd === undefined) return undefined;
    const failed = runEnd.status !== 'success';
    const status = failed ? 'failed' : this.stream.stoppedByHook ? 'stopped' : 'completed';
    const failure = failed && runEnd.errorMessage !== undefined ? classifyGeminiError(runEnd.errorMessage) : undefined;
    return resultEvent(this.totals, {
      status,
      ...(failed ? { text: runEnd.errorMessage ?? 'gemini ended with an error' } : this.stream.lastAgentText === undefined ? {} : { text: this.stream.lastAgentText }),
      sessionId: this.stream.sessionId ?? this.sessionId,
      ...(failure === undefined ? {} : { failure }),
      ...(runEnd.durationMs === undefined ? {} : { durationMs: runEnd.durationMs }),
    });
  }

  private async pump(child: ChildProcessWithoutNullStreams): Promise<void> {
    for await (const batch of readLineBytesBatches(child.stdout)) {
      for (let i = 0; i < batch.lines.length; i++) {
        const line = batch.lines[i] as string;
        this.logs.rawLine(line, batch.bytes[i]);
        for (const event of parseGeminiLine(line, this.stream)) this.handle(event);
        this.advance();
      }
      this.readChatSoon();
      if (!this.logs.flush()) await this.logs.drained();
      await this.queue.room();
    }
  }

  /**
   * gemini prints a response's tool_use lines before its usage reaches the chat file, and a stop
   * decided on that usage must know that response's tools, or the guard refuses them (clean-clone CIs
   * saw it: the crossing call's tools refused, its work redone after the restart). So lines read from
   * the chat file are handled only after one more turn of the event loop: its poll for I/O comes
   * after the read, so whatever gemini printed before writing them is in the pipe then and is read
   * first. Reading the file after the waiting I/O alone was not enough: gemini can print between
   * that poll and the read, the more so when debussy is short of CPU.
   */
  private readChatSoon(): void {
    setImmediate(() => {
      if (this.agent.exited) return;
      const lines = this.newChatLines();
      if (lines.length === 0) return this.advance();
      this.chatLinesRead.push(...lines);
      setImmediate(() => this.handleChatLines());
    });
  }

  /** What gemini appended to its chat file since the last read, handled now (once gemini has exited, the file is whole). */
  private readChat(): void {
    this.chatLinesRead.push(...this.newChatLines());
    this.handleChatLines();
  }

  private newChatLines(): string[] {
    // gemini makes its chat file after its storage is set up, which its init line follows: no search of ~/.gemini/tmp before.
    if (this.stream.sessionId === undefined && this.options.resumeSessionId === undefined) return [];
    return this.chatFile?.newLines() ?? [];
  }

  /** The chat-file lines read and not yet handled: each new call's usage becomes events. */
  private handleChatLines(): void {
    const lines = this.chatLinesRead.splice(0);
    for (const line of lines) {
      for (const event of chatLineEvents(line, this.chat, this.totals)) this.handle(event);
    }
    this.advance();
  }

  private handle(event: AgentEvent): void {
    if (event.type === 'api_error') this.lastApiError = event;
    else if (event.type === 'api_retry') this.lastRetry = event;
    this.logs.event(event);
    this.consumer.handling(this.totals.calls, () => {
      try {
        this.options.onEvent?.(event);
      } catch (error) {
        this.logs.note(`onEvent threw: ${String(error)}`);
      }
    });
    this.queue.push(event);
  }

  /** Takes the stop one step further. */
  private advance(): void {
    if (this.agent.exited) return;
    const allowedGrew = this.allowStopCallTools();
    const pendingTools = this.stream.pendingTools.size;
    const decision = geminiStopStep({
      stopRequested: this.stop.requested,
      immediate: this.stop.immediate,
      signalled: this.signalled,
      calls: this.totals.calls,
      stopCall: this.stop.atCall,
      pendingTools,
      toolsFinishedSinceStop: this.stop.toolsRunning && pendingTools === 0,
      settleExpired: this.stop.settleExpired,
    });
    if (decision.armGuard && (!this.stop.guardArmed || allowedGrew)) {
      this.stop.guardArmed = true;
      this.guard.arm(this.allowed.fingerprints);
    }
    if (decision.step === 'settle' && !this.stop.settleStarted) {
      this.stop.settleStarted = true;
      this.agent.after(STOP_SETTLE_MS, () => {
        this.stop.settleExpired = true;
        this.advance();
      });
    } else if (decision.step === 'signal') {
      this.signalled = true;
      this.logs.note(`stopping: SIGTERM (${pendingTools} tools running; SIGKILL in ${this.graceMs} ms if gemini has not exited)`);
      // To gemini's process group (it runs without its relauncher: one node process); its shells have groups of their own, ended at the end.
      this.agent.signal('SIGTERM');
      this.agent.after(this.graceMs, () => this.agent.signal('SIGKILL'));
    }
  }

  /**
   * The tools the guard lets through once armed: those running when a graceful stop was decided,
   * and those of the same batch read after it (gemini prints a batch's tool_use lines before any of
   * its results, and the next response's only after them), until the first tool_result since the
   * stop. With nothing running at the stop, nothing is let through: a tool_use read after it may be
   * the next response's (its call's tools done and their results read before its usage). An
   * immediate stop lets nothing through. Whether the list grew.
   */
  private allowStopCallTools(): boolean {
    if (this.stop.immediate) {
      const had = this.allowed.fingerprints.length > 0;
      this.allowed.fingerprints = [];
      return had;
    }
    if (!this.stop.requested || !this.stop.toolsRunning || this.signalled || this.stream.toolResults > this.stop.resultsAtStop) return false;
    let grew = false;
    for (const [id, tool] of this.stream.pendingTools) {
      if (this.allowed.ids.has(id)) continue;
      this.allowed.ids.add(id);
      this.allowed.fingerprints.push(geminiToolFingerprint(tool.name, tool.parameters));
      grew = true;
    }
    return grew;
  }

  private readRetries(chunk: string): void {
    for (const retry of this.retries.feed(chunk)) this.handle({ type: 'api_retry', attempt: retry.attempt, maxRetries: 0, delayMs: retry.delayMs, errorStatus: retry.errorStatus });
  }
}
