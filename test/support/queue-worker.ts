/**
 * A `debussy worker --queue URL` process in a checkout of its own, standing in for a machine that
 * runs phases, once it waits for jobs; optionally under /usr/bin/time (its CPU, and that of every
 * process it waited for). Stop it by SIGTERM to `pid`, the worker itself: under /usr/bin/time a
 * signal to time would end time and leave the worker running.
 */
import { spawn } from 'node:child_process';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { waitFor } from '../e2e/processes.js';
import { descendantsOf, killTree } from './process-tree.js';

export interface QueueWorkerProcess {
  /** Its checkout (--dir). */
  dir: string;
  /** The spawned process: the worker, or /usr/bin/time above it. */
  rootPid: number;
  /** The `debussy worker` process. */
  pid: number;
  output: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startQueueWorker(options: { dir: string; url: string; env: Record<string, string>; cwd: string; timesFile?: string }): Promise<QueueWorkerProcess> {
  const worker = [process.execPath, DEBUSSY_BIN, 'worker', '--queue', options.url, '--dir', options.dir];
  const [command, ...args] = options.timesFile === undefined ? worker : ['/usr/bin/time', '-f', '%U %S', '-o', options.timesFile, ...worker];
  const child = spawn(command ?? process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const rootPid = child.pid ?? 0;
  const waiting = () => output.includes('waits for phase jobs');
  try {
    await waitFor(`the worker in ${options.dir} to wait for jobs`, () => waiting() || child.exitCode !== null, 30_000);
  } catch (error) {
    await killTree(rootPid, 'SIGKILL');
    throw error;
  }
  if (!waiting()) throw new Error(`the worker in ${options.dir} exited ${String(child.exitCode)}: ${output.slice(-1500)}`);
  const pid = options.timesFile === undefined ? rootPid : (await descendantsOf(rootPid))[0];
  if (pid === undefined) throw new Error(`the worker in ${options.dir} has no process under /usr/bin/time`);
  return { dir: options.dir, rootPid, pid, output: () => output, done };
}
