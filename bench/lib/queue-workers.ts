/**
 * The machines of figure 9, on this one: `debussy worker --queue URL` processes, each in a
 * directory of its own and under /usr/bin/time for their CPU (test/support/queue-worker.ts),
 * stopped by SIGTERM to their own PIDs; what the queue kept of each job (when it was added, taken,
 * finished); and the check that nothing the figure started is left running. The Redis is
 * test/support/redis-server.ts's, stopped by PID.
 */
import { readFileSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { commandLineOf, isAlive, killTree } from '../../test/support/process-tree.js';
import { startQueueWorker, type QueueWorkerProcess } from '../../test/support/queue-worker.js';
import { PHASE_QUEUE, queueConnection } from '../../src/queue/connection.js';

export interface BenchWorker extends QueueWorkerProcess {
  name: string;
  timesFile: string;
}

/** A worker in `scratch/NAME` under /usr/bin/time, once it waits for jobs. */
export async function startWorker(name: string, scratch: string, url: string, env: Record<string, string>, timesDir: string): Promise<BenchWorker> {
  const timesFile = path.join(timesDir, `time-${name}.txt`);
  const worker = await startQueueWorker({ dir: path.join(scratch, name), url, env, cwd: scratch, timesFile });
  return { ...worker, name, timesFile };
}

export interface WorkersStopped {
  /** Each worker's exit and CPU (user + system of it and every process it waited for: claude, tools, gates, git). */
  workers: { name: string; code: number | null; signal: NodeJS.Signals | null; cpuS: { user: number; system: number } }[];
}

/** SIGTERM to each worker; one that has not exited within `graceMs` is killed, with its tree, and named. */
export async function stopWorkers(workers: readonly BenchWorker[], graceMs = 30_000): Promise<WorkersStopped> {
  for (const worker of workers) signal(worker.pid, 'SIGTERM');
  const stopped: WorkersStopped = { workers: [] };
  for (const worker of workers) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const exit = await Promise.race([worker.done, late]);
    clearTimeout(timer);
    if (exit === 'late') {
      await killTree(worker.rootPid, 'SIGKILL');
      throw new Error(`bench: worker ${worker.name} did not exit within ${graceMs / 1000} s of SIGTERM (killed): ${worker.output().slice(-1500)}`);
    }
    stopped.workers.push({ name: worker.name, ...exit, cpuS: timesOf(worker.timesFile) });
  }
  return stopped;
}

/** Kills what is left of the workers (on a figure that broke); each by its own tree. */
export async function killWorkers(workers: readonly BenchWorker[]): Promise<void> {
  for (const worker of workers) await killTree(worker.rootPid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function timesOf(file: string): { user: number; system: number } {
  // /usr/bin/time writes "Command exited with non-zero status N" first when it did.
  const [user, system] = (readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { user: user ?? Number.NaN, system: system ?? Number.NaN };
}

/**
 * Processes still running that the figure started: any of `pids`, and any process whose working
 * directory is under one of `dirs` (the project, the workers' checkouts: a claude session or a tool
 * that outlived its worker would be there). Each as "PID command line".
 */
export async function leftRunning(pids: readonly number[], dirs: readonly string[]): Promise<string[]> {
  const found = new Set<number>();
  for (const pid of pids) if (pid > 0 && (await isAlive(pid))) found.add(pid);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cwd: string;
    try {
      cwd = await readlink(`/proc/${entry}/cwd`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (dirs.some((dir) => cwd === dir || cwd.startsWith(`${dir}/`)) && (await isAlive(Number(entry)))) found.add(Number(entry));
  }
  return Promise.all([...found].map(async (pid) => `${pid} ${await commandLineOf(pid)}`));
}

/** What the queue kept of a job: when it was added, taken by a worker and finished (ms, this machine's clock). */
export interface JobRecord {
  phaseId: string;
  addedAt: number;
  takenAt: number | undefined;
  finishedAt: number | undefined;
  /** How many times a worker took it. */
  starts: number;
  state: string;
}

export async function jobRecords(url: string): Promise<JobRecord[]> {
  const queue = new Queue(PHASE_QUEUE, { connection: queueConnection(url).options });
  queue.on('error', () => {});
  try {
    const jobs = await queue.getJobs(['completed', 'failed', 'active', 'wait', 'delayed', 'prioritized', 'waiting-children']);
    return Promise.all(jobs.map(async (job) => ({
      phaseId: String((job.data as { phaseId?: unknown }).phaseId),
      addedAt: job.timestamp,
      takenAt: job.processedOn,
      finishedAt: job.finishedOn,
      starts: job.attemptsStarted,
      state: await job.getState(),
    })));
  } finally {
    await queue.close();
  }
}

/** A process's own CPU so far (user + system, s), from /proc/PID/stat; NaN once it is gone. */
export function processCpuS(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
