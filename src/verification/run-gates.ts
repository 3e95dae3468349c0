/**
 * Runs a phase's gates in the project root, each with a timeout, all of them (never stopping at the
 * first failure), keeping the tail of each one's output. debussy never takes the agent's word.
 *
 * A gate is its shell: it ends when the shell exits, even if something it started in the
 * background still holds its output pipe. Whatever it started is then ended, found by its process
 * group and by a marker variable in its environment (which also finds descendants that left the
 * group with setsid). The timeout and a user's stop (Ctrl-C) bound all of them the same way.
 *
 * The shell is started with execa (loaded by the first gate: `debussy done` without --verify never
 * loads it): its timeout, cancellation and SIGTERM-then-SIGKILL escalation end the shell, its `all`
 * stream interleaves stdout and stderr. execa signals the shell alone and waits for every holder of
 * its pipes, so the group, the marked processes and the drain stay ours.
 */
import { randomUUID } from 'node:crypto';
import type { Gate } from '../plan/types.js';
import { findMarkedProcesses, markerRootStartTime, terminateProcesses } from '../process/tree.js';
import { FailureCollector, type FailureList } from '../verification/failure-lines.js';

export interface GateOutcome {
  name: string;
  command: string;
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** Stopped by the user (Ctrl-C) before it finished: neither passed nor failed. */
  interrupted: boolean;
  durationMs: number;
  /** The last lines of stdout+stderr interleaved. */
  outputTail: string;
  /** A failed gate: what its whole output said failed (tests or error lines), to compare with its baseline. */
  failures?: FailureList;
}

/** What may stop a gate before it finishes: the first Ctrl-C (graceful), the second (kill now). */
export interface GateStop {
  interrupt?: AbortSignal;
  forceStop?: AbortSignal;
}

export const GATE_MARKER_VAR = 'DEBUSSY_GATE_MARKER';

const TAIL_CHARS = 4000;
/** How long a stopped gate (timeout, Ctrl-C) has to exit after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 2000;
/** How long what a finished gate left running has to exit after SIGTERM. */
const LEFTOVER_GRACE_MS = 500;
/** After the gate and its processes are gone, how long its output pipes may take to drain. */
const DRAIN_MS = 1000;

function keepTail(buffer: string, chunk: string): string {
  const joined = buffer + chunk;
  return joined.length > TAIL_CHARS * 2 ? joined.slice(-TAIL_CHARS * 2) : joined;
}

function tailLines(text: string): string {
  const tail = text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
  const lines = tail.split('\n');
  return (text.length > TAIL_CHARS ? lines.slice(1) : lines).join('\n').trimEnd();
}

function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is empty
  }
}

/**
 * Ends the gate's whole process group and every process carrying its marker. `shellStartTime`, the
 * start time of the shell that was given the marker, spares searching older processes for it.
 */
async function endGateProcesses(pgid: number | undefined, marker: string, shellStartTime: number | undefined, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const gateMarker = { name: GATE_MARKER_VAR, value: marker, ...(shellStartTime === undefined ? {} : { rootStartTime: shellStartTime }) };
  await terminateProcesses(findMarkedProcesses(gateMarker), graceMs);
  signalGroup(pgid, 'SIGKILL'); // members that dropped the marker from their environment
}

function killGateNow(pgid: number | undefined, marker: string): void {
  signalGroup(pgid, 'SIGKILL');
  for (const ref of findMarkedProcesses({ name: GATE_MARKER_VAR, value: marker })) {
    try {
      process.kill(ref.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

type ExecaModule = typeof import('execa');
let execaModule: Promise<ExecaModule> | undefined;

function loadExeca(): Promise<ExecaModule> {
  return (execaModule ??= import('execa'));
}

export async function runGateCommand(name: string, command: string, cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env, stop: GateStop = {}): Promise<GateOutcome> {
  const started = Date.now();
  const marker = randomUUID();
  const { execa } = await loadExeca();
  // Own process group (so a Ctrl-C on the terminal reaches debussy, which decides), marked.
  const shell = execa('sh', ['-c', command], {
    cwd,
    env: { ...env, [GATE_MARKER_VAR]: marker },
    extendEnv: false,
    detached: true,
    stdin: 'ignore',
    all: true,
    buffer: false,
    reject: false,
    timeout: timeoutMs,
    ...(stop.interrupt === undefined ? {} : { cancelSignal: stop.interrupt }),
    killSignal: 'SIGTERM',
    forceKillAfterDelay: STOP_GRACE_MS,
  });
  const pgid = shell.pid;
  const shellStartTime = markerRootStartTime(shell.pid);
  let output = '';
  const failures = new FailureCollector();
  shell.all.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = keepTail(output, text);
    failures.push(text);
  });
  const exited = new Promise<{ shellExit: number | null }>((resolve) => shell.once('exit', (code) => resolve({ shellExit: code })));
  const onForceStop = () => killGateNow(pgid, marker);
  if (stop.forceStop?.aborted === true) onForceStop();
  else stop.forceStop?.addEventListener('abort', onForceStop, { once: true });

  try {
    // The shell has exited (or never started: execa's result says why).
    const first = await Promise.race([exited, shell]);
    // The shell is gone: nothing it started outlives it.
    await endGateProcesses(pgid, marker, shellStartTime, LEFTOVER_GRACE_MS);
    // Only a process outside our reach (no marker, another group) could still hold the pipes.
    let result = await Promise.race([shell, delay(DRAIN_MS).then(() => undefined)]);
    if (result === undefined) {
      shell.all.destroy();
      shell.stdout.destroy();
      shell.stderr.destroy();
      result = await shell;
    }
    const exitCode = 'shellExit' in first ? first.shellExit : (result.exitCode ?? null);
    const stopReason = result.timedOut ? 'timeout' : result.isCanceled ? 'interrupted' : undefined;
    const startFailed = pgid === undefined || (result.exitCode === undefined && result.signal === undefined && stopReason === undefined);
    const extra = startFailed ? `${output === '' ? '' : '\n'}(debussy: could not start the gate: ${oneLine(result.originalMessage ?? result.shortMessage ?? 'unknown error')})` : '';
    const tail = tailLines(output + extra);
    const note =
      stopReason === 'timeout' ? `(debussy: gate timed out after ${Math.round(timeoutMs / 1000)} s)` : stopReason === 'interrupted' ? '(debussy: gate stopped by the user)' : undefined;
    const passed = stopReason === undefined && exitCode === 0;
    const failed = passed ? undefined : failures.end();
    return {
      name,
      command,
      passed,
      exitCode,
      timedOut: stopReason === 'timeout',
      interrupted: stopReason === 'interrupted',
      durationMs: Date.now() - started,
      outputTail: note === undefined ? tail : `${tail}\n${note}`.trim(),
      ...(failed === undefined ? {} : { failures: failed }),
    };
  } finally {
    stop.forceStop?.removeEventListener('abort', onForceStop);
  }
}

/** Runs each gate in turn; after a stop (Ctrl-C) no further gate starts. */
export async function runGates(gates: Gate[], cwd: string, timeoutMs: number, env?: NodeJS.ProcessEnv, stop: GateStop = {}): Promise<GateOutcome[]> {
  const outcomes: GateOutcome[] = [];
  for (const gate of gates) {
    if (stop.interrupt?.aborted) break;
    if (gate.command === undefined) {
      outcomes.push({ name: gate.name, command: '', passed: false, exitCode: null, timedOut: false, interrupted: false, durationMs: 0, outputTail: 'no command: give the gate a command in the phase file or map it under `gates:` in the config' });
      continue;
    }
    outcomes.push(await runGateCommand(gate.name, gate.command, cwd, timeoutMs, env, stop));
  }
  return outcomes;
}
