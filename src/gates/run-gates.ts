/**
 * Runs a phase's gates in the project root, each with a timeout, all of them (never stopping at the
 * first failure), keeping the tail of each one's output. debussy never takes the agent's word.
 */
import { spawn } from 'node:child_process';
import type { Gate } from '../plan/types.js';

export interface GateOutcome {
  name: string;
  command: string;
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The last lines of stdout+stderr interleaved. */
  outputTail: string;
}

const TAIL_CHARS = 4000;

function keepTail(buffer: string, chunk: string): string {
  const joined = buffer + chunk;
  return joined.length > TAIL_CHARS * 2 ? joined.slice(-TAIL_CHARS * 2) : joined;
}

function tailLines(text: string): string {
  const tail = text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
  const lines = tail.split('\n');
  return (text.length > TAIL_CHARS ? lines.slice(1) : lines).join('\n').trimEnd();
}

export function runGateCommand(name: string, command: string, cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<GateOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    // Own process group, so a timeout ends the whole command tree, not just the shell.
    const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    const onData = (chunk: Buffer) => {
      output = keepTail(output, chunk.toString('utf8'));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 2000).unref();
    }, timeoutMs);
    const finish = (exitCode: number | null, extra = '') => {
      clearTimeout(timer);
      killGroup('SIGKILL'); // nothing the gate started outlives it
      const tail = tailLines(output + extra);
      resolve({
        name,
        command,
        passed: !timedOut && exitCode === 0,
        exitCode,
        timedOut,
        durationMs: Date.now() - started,
        outputTail: timedOut ? `${tail}\n(debussy: gate timed out after ${Math.round(timeoutMs / 1000)} s)`.trim() : tail,
      });
    };
    child.on('error', (error) => finish(null, `\n(debussy: could not start the gate: ${error.message})`));
    child.on('close', (code) => finish(code));
  });
}

export async function runGates(gates: Gate[], cwd: string, timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<GateOutcome[]> {
  const outcomes: GateOutcome[] = [];
  for (const gate of gates) {
    if (gate.command === undefined) {
      outcomes.push({ name: gate.name, command: '', passed: false, exitCode: null, timedOut: false, durationMs: 0, outputTail: 'no command: give the gate a command in the phase file or map it under `gates:` in the config' });
      continue;
    }
    outcomes.push(await runGateCommand(gate.name, gate.command, cwd, timeoutMs, env));
  }
  return outcomes;
}
