/**
 * `debussy worker --queue URL`: waits for phase jobs on the queue and runs each in its own
 * checkout (worker-checkout.ts, run-phase-job.ts), one at a time, pushing its phase branch as it
 * goes and at the end. A stop (SIGTERM, Ctrl-C) stops the running phase as a Ctrl-C stops a run
 * (its work committed), pushes it as a checkpoint and gives the job back to the queue; a worker
 * killed outright loses its job once its lock expires, and another worker takes it up from the
 * last checkpoint pushed, its first session told what the earlier one left (takeover.ts).
 */
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { commitsSince } from '../git/index.js';
import { plural } from '../report/format-units.js';
import type { Reporter } from '../report/reporter.js';
import { lockDurationMs, PHASE_QUEUE, requireConnected, type QueueConnection } from './connection.js';
import { parsePhaseJob, type PhaseJobResult } from './phase-job.js';
import { runPhaseJob } from './run-phase-job.js';
import { decideTakeover } from './takeover.js';
import { checkOutPhase, pushCheckpoints, pushPhase } from './worker-checkout.js';

export interface WorkerInput {
  connection: QueueConnection;
  /** The worker's own checkout. */
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Aborted on the first SIGTERM/SIGINT: the phase stops, the worker takes no more jobs. */
  stop: AbortSignal;
  forceStop: AbortSignal;
  reporters: () => Promise<Reporter[]>;
  log: (line: string) => void;
}

/** How often a running phase's new commits are pushed (DEBUSSY_QUEUE_PUSH_MS; 5 s). */
function pushEveryMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.DEBUSSY_QUEUE_PUSH_MS);
  return Number.isInteger(value) && value >= 200 ? value : 5000;
}

export async function runWorker(input: WorkerInput): Promise<number> {
  const name = `${hostname()}:${process.pid}`;
  const lockDuration = lockDurationMs(input.env);
  const processor = async (job: Job): Promise<PhaseJobResult> => {
    const parsed = parsePhaseJob(job.data);
    // An untrusted job that does not hold up is failed for good: retrying cannot make it valid.
    if (!parsed.ok) throw new UnrecoverableError(`job ${String(job.id)} is not a phase job: ${parsed.problem}`);
    const phase = parsed.value;
    input.log(`job ${String(job.id)}: phase ${phase.phaseId} of run ${phase.runId} (${phase.planPath})`);
    const start = await checkOutPhase(input.dir, phase);
    const takeover = decideTakeover(phase, await commitsSince(input.dir, phase.baseSha));
    if (takeover !== undefined) {
      const entries = takeover.carry.resumedFrom?.progress.length ?? 0;
      input.log(`job ${String(job.id)}: phase ${phase.phaseId} taken over at ${takeover.head.sha.slice(0, 12)} (${plural(takeover.commits, 'commit')} since its base, ${entries} progress ${entries === 1 ? 'entry' : 'entries'})`);
    }
    const pusher = pushCheckpoints(input.dir, phase, pushEveryMs(input.env), start);
    let ran: Awaited<ReturnType<typeof runPhaseJob>>;
    try {
      ran = await runPhaseJob({
        dir: input.dir, job: phase, reporters: await input.reporters(), interrupt: input.stop, forceStop: input.forceStop, env: input.env, worker: name,
        ...(takeover === undefined ? {} : { takeover: takeover.carry }),
      });
    } finally {
      await pusher.stop();
    }
    const commitSha = await pushPhase(input.dir, phase);
    input.log(`job ${String(job.id)}: phase ${phase.phaseId} ${ran.status} (exit ${ran.exitCode}), ${phase.phaseBranch} at ${commitSha.slice(0, 12)} pushed`);
    // Stopped by this worker's own stop: the work is pushed, and the job goes back to the queue for another worker.
    if (ran.status === 'interrupted' && input.stop.aborted) throw new Error(`worker ${name} stopped during phase ${phase.phaseId}; its work is pushed to ${phase.phaseBranch}`);
    return { ...ran, commitSha };
  };
  const worker = new Worker(PHASE_QUEUE, processor, {
    connection: input.connection.options,
    concurrency: 1,
    lockDuration,
    stalledInterval: lockDuration,
    // A job whose worker died is taken up again (each time from its last checkpoint), not failed after one loss.
    maxStalledCount: 10,
    autorun: false,
  });
  let lastError = '';
  worker.on('error', (error) => {
    // Redis gone: ioredis reconnects on its own; say so once, not at every retry.
    const line = error.message;
    if (line !== lastError) input.log(`queue: ${line} (waiting for it to come back)`);
    lastError = line;
  });
  worker.on('ready', () => {
    if (lastError !== '') input.log(`queue: connected again to ${input.connection.shown}`);
    lastError = '';
  });
  worker.on('failed', (job, error) => input.log(`job ${String(job?.id)}: ${error.message}`));
  try {
    await requireConnected(worker, input.connection, input.env);
  } catch (error) {
    await worker.close(true);
    throw error;
  }
  input.log(`worker ${name} waits for phase jobs on ${input.connection.shown} (checkout: ${input.dir})`);
  const running = worker.run();
  await new Promise<void>((resolve) => {
    if (input.stop.aborted) resolve();
    else input.stop.addEventListener('abort', () => resolve(), { once: true });
  });
  // close() lets the job in hand end (its phase is stopping, like a Ctrl-C) before it returns.
  await worker.close();
  await running;
  input.log(`worker ${name} stopped`);
  return 0;
}
