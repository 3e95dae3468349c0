/**
 * The process of an agent that debussy spawns with node's own `spawn` and talks to over pipes
 * (codex's app-server, gemini): found on PATH or refused with the agent's install hint, started in
 * a process group of its own (a Ctrl-C at the terminal reaches debussy, which stops the session in
 * order), signalled as a group, its stderr's tail kept, timers that die with it, and what its tools
 * left running ended at the end. The session around it (codex-session.ts, gemini-session.ts) reads
 * the stream and decides; this holds what every such session does with its process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { DebussyError } from '../errors/index.js';
import { processStartTime } from '../process/identity.js';
import { tailText } from '../redact/index.js';
import { launchProblem, spawnFailure } from './agent-launch.js';
import type { SessionEnd } from './agent-session.js';
import { ExitTimers } from './exit-timers.js';
import { finishReading } from './line-reader.js';
import { SESSION_MARKER_VAR, SessionProcesses } from './session-processes.js';

const STDERR_TAIL_CHARS = 4_096;

export interface SpawnedAgentSpec {
  command: string;
  cwd: string;
  /** The session's environment; the session marker is added. */
  env: NodeJS.ProcessEnv;
  marker: string;
  installHint: string;
  /** The arguments and the environment as the process gets it; may throw (a settings home that cannot be made). */
  prepare: (env: Record<string, string>) => { args: readonly string[]; env: Record<string, string> };
  /** The agent's own words for a command that is not there (else agent-launch.ts's). */
  notFound?: (failure: DebussyError) => DebussyError;
}

export interface SpawnedExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function noop(): void {}

export class SpawnedAgent {
  readonly child: ChildProcessWithoutNullStreams | undefined;
  readonly pid: number;
  readonly startTime: number | undefined;
  readonly processes: SessionProcesses | undefined;
  /** Why no process runs; set exactly when `child` is undefined. */
  readonly failure: DebussyError | undefined;
  readonly startedAt = Date.now();
  killRequested = false;
  private readonly timers: ExitTimers;
  private stderr = '';

  constructor(spec: SpawnedAgentSpec) {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(spec.env)) if (value !== undefined) env[key] = value;
    env[SESSION_MARKER_VAR] = spec.marker;
    let failure = launchProblem(spec.command, spec.cwd, env.PATH, spec.installHint);
    if (failure?.code === 'E_AGENT_NOT_FOUND' && spec.notFound !== undefined) failure = spec.notFound(failure);
    let child: ChildProcessWithoutNullStreams | undefined;
    if (failure === undefined) {
      try {
        const prepared = spec.prepare(env);
        child = spawn(spec.command, prepared.args, { cwd: spec.cwd, env: prepared.env, detached: true, stdio: 'pipe' });
      } catch (error) {
        failure = spawnFailure(spec.command, error, spec.installHint);
      }
    }
    this.child = child?.pid === undefined ? undefined : child;
    this.pid = this.child?.pid ?? 0;
    this.startTime = this.child === undefined ? undefined : processStartTime(this.pid);
    this.processes = this.child === undefined ? undefined : new SessionProcesses({ pid: this.pid, ...(this.startTime === undefined ? {} : { startTime: this.startTime }) }, spec.marker);
    this.failure = this.child === undefined ? (failure ?? spawnFailure(spec.command, new Error('no process was started'), spec.installHint)) : undefined;
    // Nothing started is nothing to stop, signal or wait for.
    this.timers = new ExitTimers(this.child === undefined);
  }

  /**
   * Watches the process: its stderr (handed to `onStderr` too), a broken stdin ignored (the agent
   * gone: what was left to say does not matter), the scan for its descendants started. Resolves
   * when it exits, with every timer of `after` cleared.
   */
  watch(child: ChildProcessWithoutNullStreams, onStderr?: (chunk: string) => void): Promise<SpawnedExit> {
    const exited = new Promise<SpawnedExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.on('error', (error) => this.appendStderr(`${String(error)}\n`));
    child.stdin.on('error', noop);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.appendStderr(chunk);
      onStderr?.(chunk);
    });
    this.processes?.start();
    return exited.then((exit) => {
      this.timers.exit();
      return exit;
    });
  }

  /** Waits for the stream's reader to take the rest of stdout. */
  finishReading(pumped: Promise<void>): Promise<void> {
    return this.child === undefined ? pumped : finishReading(pumped, this.child.stdout);
  }

  /** Ends what its tools left running (at once after a kill, else after `graceMs`); how many. */
  async endLeftovers(graceMs: number): Promise<number> {
    return (await this.processes?.terminateLeftovers(this.killRequested ? 0 : graceMs)) ?? 0;
  }

  /** To the process group: the agent and what it runs in that group (its tools' shells have groups of their own). */
  signal(signal: NodeJS.Signals): void {
    if (this.exited) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already gone
    }
  }

  /** SIGKILL, once; false when there is nothing to kill. */
  kill(): boolean {
    if (this.exited || this.killRequested || this.child === undefined) return false;
    this.killRequested = true;
    this.signal('SIGKILL');
    return true;
  }

  get exited(): boolean {
    return this.timers.exited;
  }

  /** `action` after `ms`, unless the process has exited by then. */
  after(ms: number, action: () => void): void {
    this.timers.after(ms, action);
  }

  stderrTail(): string {
    return tailText(this.stderr, STDERR_TAIL_CHARS);
  }

  /** The fields of a SessionEnd that come from the process. */
  endFields(exit: SpawnedExit, leftoverProcessesKilled: number): Pick<SessionEnd, 'exitCode' | 'signal' | 'stderrTail' | 'durationMs' | 'leftoverProcessesKilled'> {
    return { exitCode: exit.code, signal: exit.signal, stderrTail: this.stderrTail(), durationMs: Date.now() - this.startedAt, leftoverProcessesKilled };
  }

  /** Text for the stderr tail that does not come from the process (a refusal over the protocol). */
  appendStderr(chunk: string): void {
    this.stderr = (this.stderr + chunk).slice(-2 * STDERR_TAIL_CHARS);
  }
}
