/**
 * One debussy session through `codex app-server`: one process, one thread (started, or resumed
 * from codex's saved rollout), one turn with the prompt. Its notifications become AgentEvents
 * (app-server-events.ts) as they arrive, are logged, and the session stops gracefully on request
 * (codex-stop.ts: from the decision on, the guard refuses every tool call but the stop's own call's,
 * turn/interrupt ends the turn, closing stdin ends codex and its tools). Whatever way it ends, no
 * process of the session is left behind. It has the shape of the claude session (AgentSession), so
 * the orchestrator can run either.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { AgentProcessError, type DebussyError } from '../../errors/index.js';
import type { AgentEvent, ApiErrorEvent, ApiRetryEvent, ResultEvent } from '../agent-events.js';
import type { AgentSession, SessionBasics, SessionEnd } from '../agent-session.js';
import { EventQueue } from '../event-queue.js';
import { ConsumerCalls } from '../consumer-calls.js';
import { readLineBytesBatches } from '../line-reader.js';
import { sessionOutcomeOf } from '../session-outcome.js';
import { SessionLogs } from '../session-logs.js';
import { SpawnedAgent } from '../spawned-agent.js';
import { createStopGuard, type StopGuard } from '../stop-guard.js';
import * as rpc from './app-server-protocol.js';
import { appServerMessageEvents, keepInRawLog, newCodexParseState, toolCallIdsOfCall, type CodexParseState } from './app-server-events.js';
import { codexLaunch, type CodexLaunchInput } from './codex-launch.js';
import { codexStopStep } from './codex-stop.js';

const CODEX_INSTALL_HINT = 'Install Codex CLI (npm install -g @openai/codex) or set codex_command in the config to its full path.';

export interface CodexSessionOptions extends SessionBasics {
  /** codex's command and debussy's settings for it (model, permission_mode, the user's flags). */
  launch: Omit<CodexLaunchInput, 'cwd' | 'stopFile'>;
  /** Continue this saved thread (thread/resume) instead of starting one. */
  resumeThreadId?: string;
  /** How long a graceful stop waits for a response still streaming. Default 30000. */
  responseDrainMs?: number;
}

const DEFAULT_STOP_GRACE_MS = 5_000;
const DEFAULT_RESPONSE_DRAIN_MS = 30_000;
const CLIENT = { name: 'debussy', version: '1' };
const INSTALL_HINT = 'Install the Codex CLI (npm install -g @openai/codex) or set codex_command in the config to its full path.';

export function startCodexSession(options: CodexSessionOptions): AgentSession {
  return new CodexSession(options);
}

function noop(): void {}

class CodexSession implements AgentSession {
  readonly pid: number;
  readonly marker = randomUUID();
  readonly startTime: number | undefined;
  readonly ended: Promise<SessionEnd>;

  private readonly graceMs: number;
  private readonly queue = new EventQueue<AgentEvent>();
  private readonly state: CodexParseState;
  private readonly logs: SessionLogs;
  private readonly guard: StopGuard;
  private readonly agent: SpawnedAgent;
  private nextId = 1;
  private readonly requests = new Map<rpc.RequestId, string>();
  private result: ResultEvent | undefined;
  private lastApiError: ApiErrorEvent | undefined;
  private lastRetry: ApiRetryEvent | undefined;
  private stop = { requested: false, immediate: false, reason: undefined as string | undefined, atCall: 0, drainExpired: false };
  /** The stop file's list as last written (one id a line); undefined while the guard is off. */
  private guardList: string | undefined;
  private interruptSent = false;
  private stdinClosed = false;
  private readonly consumer = new ConsumerCalls();

  constructor(private readonly options: CodexSessionOptions) {
    this.graceMs = Math.max(0, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    this.logs = new SessionLogs(options.rawLogPath, options.readableLogPath, options.redact, options.onLogFailure);
    this.state = newCodexParseState({ ...(options.redact === undefined ? {} : { redact: options.redact }), ...(options.priceCall === undefined ? {} : { priceCall: options.priceCall }), rawEvents: options.resumeThreadId === undefined });
    this.guard = createStopGuard(this.marker);
    const launch = codexLaunch({ ...options.launch, cwd: options.cwd, stopFile: this.guard.stopFile });
    for (const note of launch.notes) this.logs.note(`codex: ${note}`);
    this.agent = new SpawnedAgent({
      command: launch.command, cwd: options.cwd, env: options.env, marker: this.marker, installHint: CODEX_INSTALL_HINT,
      prepare: (env) => ({ args: launch.args, env }),
      notFound: () => new AgentProcessError('E_AGENT_NOT_FOUND', `The codex command "${launch.command}" was not found or is not executable.`, { exitKind: 'prerequisites', hint: INSTALL_HINT }),
    });
    this.pid = this.agent.pid;
    this.startTime = this.agent.startTime;
    const child = this.agent.child;
    this.ended = child === undefined ? this.failToStart(this.agent.failure as DebussyError) : this.run(child, launch.thread);
    this.ended.catch(noop);
  }

  events(): AsyncIterable<AgentEvent> {
    return this.consumer.iterate(this.queue);
  }

  requestStop(reason: string, options: { immediate?: boolean } = {}): void {
    if (this.agent.exited || this.agent.killRequested) return;
    if (!this.stop.requested) {
      const atCall = this.consumer.at(this.state.totals.calls);
      // A response still streaming is the turn the stop was decided in: its usage comes at its end.
      const current = atCall === this.state.totals.calls && this.state.responseOpen ? 1 : 0;
      this.stop = { ...this.stop, requested: true, reason, atCall: atCall + current };
      this.logs.note(`stop requested: ${reason}`);
      this.agent.after(this.options.responseDrainMs ?? DEFAULT_RESPONSE_DRAIN_MS, () => {
        this.stop.drainExpired = true;
        this.advance();
      });
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

  private async run(child: ChildProcessWithoutNullStreams, thread: rpc.ThreadSettings): Promise<SessionEnd> {
    const exited = this.agent.watch(child);
    this.send((id) => rpc.initializeRequest(id, CLIENT), 'initialize');
    const pumped = this.pump(child, thread);
    const exit = await exited;
    this.queue.stopBackpressure();
    await this.agent.finishReading(pumped);
    this.queue.end();
    const leftoverProcessesKilled = await this.agent.endLeftovers(this.graceMs);
    this.guard.dispose();
    const outcome = sessionOutcomeOf({ result: this.result, stopSignalled: this.interruptSent || (this.stop.requested && this.stdinClosed), killRequested: this.agent.killRequested, apiErrorSeen: this.lastApiError !== undefined });
    const end: SessionEnd = {
      outcome,
      ...this.agent.endFields(exit, leftoverProcessesKilled),
      ...(this.result === undefined ? {} : { result: this.result }),
      sawResult: this.result !== undefined,
      stopRequested: this.stop.requested,
      ...(this.stop.reason === undefined ? {} : { stopReason: this.stop.reason }),
      unparsedLines: this.state.unparsedLines,
      ...(this.lastApiError === undefined ? {} : { lastApiError: this.lastApiError }),
      ...(this.lastRetry === undefined ? {} : { lastRetry: this.lastRetry }),
      ...(this.state.threadId === undefined ? {} : { sessionId: this.state.threadId }),
      streamTokens: { input: this.state.totals.uncachedInput, output: this.state.totals.output },
      incompleteLogs: [],
    };
    this.logs.note(`session ended: ${outcome} (exit ${exit.code ?? exit.signal ?? '?'}${end.sawResult ? '' : ', no turn/completed'}${leftoverProcessesKilled > 0 ? `, ${leftoverProcessesKilled} leftover processes ended` : ''})`);
    await this.logs.close();
    end.incompleteLogs = this.logs.incomplete();
    return end;
  }

  private async pump(child: ChildProcessWithoutNullStreams, thread: rpc.ThreadSettings): Promise<void> {
    for await (const batch of readLineBytesBatches(child.stdout)) {
      for (let i = 0; i < batch.lines.length; i++) {
        const line = batch.lines[i] as string;
        let message: rpc.AppServerMessage | undefined;
        try {
          message = rpc.classifyMessage(JSON.parse(line));
        } catch {
          message = undefined;
        }
        if (keepInRawLog(message)) this.logs.rawLine(line, batch.bytes[i]);
        for (const event of appServerMessageEvents(message, line, this.state)) this.handle(event);
        if (message !== undefined) this.converse(message, thread);
        this.advance();
      }
      if (!this.logs.flush()) await this.logs.drained();
      await this.queue.room();
    }
  }

  /** The protocol's next step after a message: initialize, thread, turn; answers to codex's requests. */
  private converse(message: rpc.AppServerMessage, thread: rpc.ThreadSettings): void {
    if (message.kind === 'server_request') {
      this.logs.note(`codex asked ${message.method}: declined (debussy runs codex unattended)`);
      this.write(rpc.answerServerRequest(message));
      return;
    }
    if (message.kind !== 'response' && message.kind !== 'error_response') return;
    const method = this.requests.get(message.id);
    this.requests.delete(message.id);
    if (message.kind === 'error_response') {
      // A refused thread/resume (an unknown thread) or turn: nothing will run; the session ends.
      this.agent.appendStderr(`codex app-server refused ${method ?? 'a request'}: ${message.message}\n`);
      if (method !== 'turn/interrupt') this.closeStdin(`${method ?? 'a request'} was refused`);
      return;
    }
    if (method === 'initialize') {
      this.write(rpc.INITIALIZED_NOTIFICATION);
      const resume = this.options.resumeThreadId;
      if (resume === undefined) this.send((id) => rpc.threadStartRequest(id, thread), 'thread/start');
      else this.send((id) => rpc.threadResumeRequest(id, resume, thread), 'thread/resume');
    } else if (method === 'thread/start' || method === 'thread/resume') {
      const threadId = this.state.threadId;
      if (threadId === undefined) return this.closeStdin(`${method} answered without a thread`);
      if (this.stop.requested) return this.closeStdin('stopped before the turn started');
      this.send((id) => rpc.turnStartRequest(id, threadId, this.options.prompt), 'turn/start');
    } else if (method === 'turn/start') {
      this.state.turnId ??= rpc.turnIdOfResponse(message.result);
    }
  }

  private handle(event: AgentEvent): void {
    if (event.type === 'result') this.result = event;
    else if (event.type === 'api_error') this.lastApiError = event;
    else if (event.type === 'api_retry') this.lastRetry = event;
    this.logs.event(event);
    this.consumer.handling(this.state.totals.calls, () => {
      try {
        this.options.onEvent?.(event);
      } catch (error) {
        this.logs.note(`onEvent threw: ${String(error)}`);
      }
    });
    this.queue.push(event);
  }

  /** Takes the stop (or the session's natural end) one step further. */
  private advance(): void {
    if (this.agent.exited) return;
    const decision = codexStopStep({
      stopRequested: this.stop.requested,
      immediate: this.stop.immediate,
      drainExpired: this.stop.drainExpired,
      turnKnown: this.state.turnId !== undefined,
      turnEnded: this.state.turnEnded,
      interruptSent: this.interruptSent,
      stdinClosed: this.stdinClosed,
      calls: this.state.totals.calls,
      stopCall: this.stop.atCall,
      settledCalls: this.state.settledCalls,
      stopCallIds: this.stop.requested ? toolCallIdsOfCall(this.state, this.stop.atCall) : [],
    });
    const list = decision.guardAllows?.join('\n');
    if (list !== undefined && list !== this.guardList) {
      this.guardList = list;
      this.guard.arm(decision.guardAllows);
    }
    if (decision.step === 'interrupt') {
      const { threadId, turnId } = this.state;
      if (threadId === undefined || turnId === undefined) return;
      this.interruptSent = true;
      this.logs.note(`stopping: turn/interrupt (${this.state.pendingToolIds.size} tools running)`);
      this.send((id) => rpc.turnInterruptRequest(id, threadId, turnId), 'turn/interrupt');
      this.agent.after(this.graceMs, () => this.closeStdin('the turn did not end after turn/interrupt'));
    } else if (decision.step === 'close') {
      this.closeStdin(this.state.turnEnded ? 'the turn has ended' : 'stopped before the turn started');
    }
  }

  /** EOF on stdin ends codex (exit 0) and what its tools left running; then SIGTERM, then SIGKILL. */
  private closeStdin(why: string): void {
    if (this.stdinClosed || this.agent.child === undefined) return;
    this.stdinClosed = true;
    this.logs.note(`closing codex's stdin: ${why}`);
    this.agent.child.stdin.end();
    // To the process group: the launcher (node, on Node < 22.15) and the native binary it started.
    this.agent.after(this.graceMs, () => {
      this.logs.note(`still running: SIGTERM (SIGKILL in ${this.graceMs} ms if it has not exited)`);
      this.agent.signal('SIGTERM');
      this.agent.after(this.graceMs, () => this.agent.signal('SIGKILL'));
    });
  }

  private send(build: (id: number) => Record<string, unknown>, method: string): void {
    const id = this.nextId++;
    this.requests.set(id, method);
    this.write(build(id));
  }

  private write(message: Record<string, unknown>): void {
    if (this.stdinClosed || this.agent.child === undefined) return;
    this.agent.child.stdin.write(rpc.encodeMessage(message));
  }
}
