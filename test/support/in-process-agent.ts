/**
 * An agent that runs in the test's own process, behind the same seam as Claude Code
 * (src/agent/agent-driver.ts). Each session plays a script of steps: model calls with a context
 * size, text, tool calls that may touch the work tree, the agent's `debussy done` / `progress`
 * (the session's real `debussy` shim, answered by the run's inbox), and an end (a result, a crash, an
 * API error, a usage limit). A graceful stop is honoured after the running step, as claude honours
 * it after the running tool; an immediate stop cuts the script at once. No process starts, so the
 * orchestrator's decisions can be table-tested in milliseconds.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentDriver, AgentEvent, AgentLaunch, AgentSession, LogFailure, SessionEnd } from '../../src/agent/index.js';
import { execFile } from 'node:child_process';
import { summarizeToolUse } from '../../src/agent/tool-summary.js';

export type ScriptStep =
  /**
   * One model call that saw `context` tokens, answering with `output` tokens; `input` of them
   * uncached (default 10: the rest are cache reads), for tests of what calls cost.
   */
  | { call: number; output?: number; input?: number }
  | { say: string }
  /** A tool call; `run` is what it does to the work tree (in the session's cwd). */
  | { tool: string; input?: unknown; run?: (cwd: string) => void; result?: string; isError?: boolean }
  /** The agent runs `debussy done --phase <its phase> ...args`. */
  | { done: 'completed' | 'blocked' | 'failed'; reason?: string; phase?: string }
  | { progress: string }
  /** The session ends well (a success result) or with an error result. */
  | { end: 'success' | 'error'; text?: string; costUsd?: number }
  /** The process dies without a result. */
  | { crash: number }
  /**
   * The CLI gives up on the API: its error message, then an error result; `terminalReason` is the
   * result's (default 'api_error'; the gemini driver reports an overflow as 'prompt_too_long').
   */
  | { apiError: number; errorType?: string; text: string; terminalReason?: string }
  /** A subscription's usage limit is hit (resetsAt in unix seconds). */
  | { usageLimit: number }
  /** The session hangs here until it is stopped. */
  | { hang: true }
  /** The session waits here for something outside it (another session reaching a point: --parallel). */
  | { until: () => Promise<unknown> }
  /**
   * The session's readable log or raw stream log cannot be written from here on (a full disk): the
   * failure reported through the launch's onLogFailure and kept in the session's end, as a driver's
   * SessionLogs does (agent/session-logs.ts). The session goes on.
   */
  | { logFails: 'readable' | 'raw'; error?: string };

/** What one session plays, given its launch (prompt, env) and its number in the whole test (1-based). */
export type SessionScript = (launch: AgentLaunch, index: number) => ScriptStep[];

export interface InProcessAgent extends AgentDriver {
  /** The launches so far, in order. */
  readonly launches: AgentLaunch[];
  /** The answers the agent's `debussy done`/`progress` got, in order. */
  readonly signalAnswers: { code: number; stdout: string; stderr: string }[];
}

const MODEL = 'claude-sonnet-4-5';

/** `scripts[i]` plays session i+1; past the end, the last one repeats. */
export function inProcessAgent(scripts: readonly SessionScript[], options: { window?: number } = {}): InProcessAgent {
  const launches: AgentLaunch[] = [];
  const signalAnswers: InProcessAgent['signalAnswers'] = [];
  return {
    name: 'claude',
    displayName: 'the in-process test agent',
    capabilities: { perCallUsage: true, gracefulStop: true, resume: true, hooks: false },
    launches,
    signalAnswers,
    check() {},
    warnings() {
      return [];
    },
    resumeKeep(session) {
      return { ...(session.model === undefined ? {} : { model: session.model }) };
    },
    start(launch: AgentLaunch): AgentSession {
      launches.push(launch);
      const index = launches.length;
      const script = scripts[Math.min(index, scripts.length) - 1];
      if (script === undefined) throw new Error('inProcessAgent: no script');
      return new ScriptedSession(launch, script(launch, index), index, options.window ?? 200_000, signalAnswers);
    },
  };
}

class ScriptedSession implements AgentSession {
  readonly pid = 0;
  readonly startTime = undefined;
  readonly marker = 'in-process';
  readonly ended: Promise<SessionEnd>;
  private readonly events_: AgentEvent[] = [];
  private wake: (() => void) | undefined;
  /** The hang step's own waker: sharing the reader's would lose the reader's wake-up. */
  private wakeHang: (() => void) | undefined;
  private finished = false;
  private stopRequested = false;
  private stopReason: string | undefined;
  private immediate = false;
  private killed = false;
  private readonly startedAt = Date.now();
  private readonly incompleteLogs: LogFailure[] = [];

  constructor(
    private readonly launch: AgentLaunch,
    private readonly steps: ScriptStep[],
    private readonly index: number,
    private readonly window: number,
    private readonly answers: InProcessAgent['signalAnswers'],
  ) {
    this.ended = this.play();
  }

  events(): AsyncIterable<AgentEvent> {
    return {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<AgentEvent>> => {
          for (;;) {
            const event = this.events_.shift();
            if (event !== undefined) return { value: event, done: false };
            if (this.finished) return { value: undefined, done: true };
            await new Promise<void>((resolve) => (this.wake = resolve));
          }
        },
      }),
    };
  }

  requestStop(reason: string, options: { immediate?: boolean } = {}): void {
    if (!this.stopRequested) this.stopReason = reason;
    this.stopRequested = true;
    if (options.immediate === true) this.immediate = true;
    this.wake?.();
    this.wakeHang?.();
  }

  async kill(): Promise<void> {
    this.killed = true;
    this.wake?.();
    this.wakeHang?.();
    await this.ended;
  }

  private emit(event: AgentEvent): void {
    this.events_.push(event);
    try {
      appendFileSync(this.launch.readableLogPath, `${JSON.stringify(event)}\n`);
    } catch {
      // The log's folder went with the tree the agent cleaned (`rm -rf .debussy`): the event still reaches the run.
    }
    this.wake?.();
  }

  /** Lets the consumer take what was emitted (the orchestrator reacts between steps, as between stream lines). */
  private async yieldToConsumer(): Promise<void> {
    for (let i = 0; i < 5 && this.events_.length > 0; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  private async play(): Promise<SessionEnd> {
    mkdirSync(path.dirname(this.launch.readableLogPath), { recursive: true });
    const sessionId = this.launch.resumeSessionId ?? `in-process-${this.index}`;
    const model = this.launch.model ?? MODEL;
    this.emit({ type: 'init', sessionId, model, tools: ['Bash', 'Edit'] });
    let result: Extract<AgentEvent, { type: 'result' }> | undefined;
    let apiError: Extract<AgentEvent, { type: 'api_error' }> | undefined;
    let outcome: SessionEnd['outcome'] = 'crashed';
    let exitCode: number | null = 0;
    let calls = 0;
    let output = 0;
    let inputTokens = 0;
    const phase = this.launch.env.DEBUSSY_PHASE_ID ?? '';
    for (const step of this.steps) {
      await this.yieldToConsumer();
      if (this.killed) break;
      // A graceful stop lets the running turn finish (its tools run) and stops before the next model call.
      if (this.stopRequested && (this.immediate || 'call' in step || 'hang' in step)) break;
      if ('call' in step) {
        calls += 1;
        output += step.output ?? 100;
        this.emit({ type: 'request_started' });
        const input = step.input ?? 10;
        inputTokens += input;
        this.emit({ type: 'usage', messageId: `msg-${this.index}-${calls}`, model, inputTokens: input, cacheReadTokens: step.call - input, cacheCreationTokens: 0, contextTokens: step.call });
        this.emit({ type: 'output_usage', outputTokens: step.output ?? 100 });
      } else if ('until' in step) {
        await step.until();
      } else if ('say' in step) {
        this.emit({ type: 'assistant_text', messageId: `msg-${this.index}-${calls}`, text: step.say });
      } else if ('tool' in step) {
        const toolUseId = `tool-${this.index}-${calls}-${step.tool}`;
        this.emit({ type: 'tool_start', messageId: `msg-${this.index}-${calls}`, toolUseId, name: step.tool, input: step.input ?? {}, summary: summarizeToolUse(step.tool, step.input ?? {}, this.launch.cwd) });
        step.run?.(this.launch.cwd);
        this.emit({ type: 'tool_result', toolUseId, isError: step.isError === true, text: step.result ?? '' });
      } else if ('progress' in step) {
        this.answers.push(await this.signal(['progress', '--phase', phase, '--message', step.progress]));
      } else if ('end' in step) {
        result = {
          type: 'result', subtype: step.end === 'success' ? 'success' : 'error_during_execution', isError: step.end !== 'success', sessionId,
          costUsd: step.costUsd ?? 0.01 * calls, inputTokens, outputTokens: output, contextWindow: this.window, numTurns: calls,
          ...(step.text === undefined ? {} : { text: step.text }),
        };
        this.emit(result);
        outcome = step.end === 'success' ? 'completed' : 'error';
        break;
      } else if ('crash' in step) {
        exitCode = step.crash;
        outcome = 'crashed';
        break;
      } else if ('apiError' in step) {
        apiError = { type: 'api_error', errorType: step.errorType ?? 'api_error', text: step.text };
        this.emit(apiError);
        result = { type: 'result', subtype: 'success', isError: true, apiErrorStatus: step.apiError, terminalReason: step.terminalReason ?? 'api_error', text: step.text, sessionId, costUsd: 0, inputTokens: 0, outputTokens: 0 };
        this.emit(result);
        outcome = 'api_error';
        exitCode = 1;
        break;
      } else if ('usageLimit' in step) {
        this.emit({ type: 'rate_limit', status: 'rejected', resetsAt: step.usageLimit, rateLimitType: 'five_hour' });
        const text = "You've hit your limit";
        apiError = { type: 'api_error', errorType: 'rate_limit', text };
        this.emit(apiError);
        result = { type: 'result', subtype: 'success', isError: true, apiErrorStatus: 429, text, sessionId, costUsd: 0, inputTokens: 0, outputTokens: 0 };
        this.emit(result);
        outcome = 'api_error';
        exitCode = 1;
        break;
      } else if ('logFails' in step) {
        this.failLog(step);
      } else if ('hang' in step) {
        while (!this.stopRequested && !this.killed) await new Promise<void>((resolve) => (this.wakeHang = resolve));
        break;
      } else {
        this.answers.push(await this.signal(['done', '--phase', step.phase ?? phase, '--status', step.done, ...(step.reason === undefined ? [] : ['--reason', step.reason])]));
      }
    }
    if (this.killed) outcome = 'killed';
    else if (this.stopRequested && result === undefined) outcome = 'stopped';
    this.finished = true;
    this.wake?.();
    return {
      outcome,
      exitCode: this.killed ? null : exitCode,
      signal: this.killed ? 'SIGKILL' : null,
      ...(result === undefined ? {} : { result }),
      sawResult: result !== undefined,
      stopRequested: this.stopRequested,
      ...(this.stopReason === undefined ? {} : { stopReason: this.stopReason }),
      unparsedLines: 0,
      stderrTail: '',
      ...(apiError === undefined ? {} : { lastApiError: apiError }),
      sessionId,
      durationMs: Date.now() - this.startedAt,
      leftoverProcessesKilled: 0,
      streamTokens: { input: inputTokens, output },
      incompleteLogs: this.incompleteLogs,
    };
  }

  /** The logFails step: reported once per log, as SessionLogs reports its first failure. */
  private failLog(step: { logFails: 'readable' | 'raw'; error?: string }): void {
    const failure = { path: step.logFails === 'readable' ? this.launch.readableLogPath : this.launch.rawLogPath, error: step.error ?? 'ENOSPC: no space left on device' };
    if (this.incompleteLogs.some((known) => known.path === failure.path)) return;
    this.incompleteLogs.push(failure);
    this.launch.onLogFailure?.(failure);
  }

  /** The agent's own `debussy done`/`progress`: the shim on its PATH, as the agent's shell runs it. */
  private signal(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(path.join(this.launch.shimDir, 'debussy'), args, { cwd: this.launch.cwd, env: this.launch.env }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      });
    });
  }
}
