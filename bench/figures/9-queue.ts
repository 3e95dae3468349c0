/**
 * Figure 9, the job queue at width 3: figure 8's plan (24 scripted phases in 4 layers of 6, the
 * same sessions) through `debussy run PLAN --queue URL`, in a fresh project whose origin is a bare
 * repository, with a real redis-server of the bench's own (a free loopback port, stopped by PID)
 * and 3 `debussy worker --queue URL` processes on this machine, each in a checkout of its own. The
 * same plan then runs at --parallel 1 in another fresh project, for each phase's time alone.
 *
 * The critical path at width 3 (the limit) is the least time any schedule of the plan on 3 slots
 * can take, each phase taking its time from phase_started to phase_ended (session and gate) in the
 * --parallel 1 run's journal, where it had the machine to itself: no schedule ends before the
 * longest dependency chain, nor before 3 slots have done all the phases' time (sum / 3), so it is
 * the larger of the two (`criticalPathOnSlots`, bench/lib/dag-plan.ts). A greedy schedule of the
 * same times with nothing paid between phases (`listSchedule`) is recorded beside it: the best
 * makespan lies between the two. Also recorded: the ratio to the plain longest chain; the same
 * bound from the phases' times on the workers (3 at once: what the sessions cost each other is
 * left out, so the makespan against it is the queue's own cost); each job's way (ready, its
 * dependencies merged -> added to the queue -> taken by a worker -> phase started in the worker's
 * checkout -> ended -> pushed and finished -> its result seen by the submitter -> merged); the 3
 * slots' time (busy, idle while a job waited, idle while a phase was ready but not yet a job, idle
 * with nothing ready); the CPU of the submitter, the workers, Redis and the scripted server. The
 * workers are stopped by SIGTERM at the end, Redis by its PID, and anything the figure started
 * that is still running (by PID, or by a working directory in the figure's folders) fails it.
 */
import path from 'node:path';
import { eventsOf } from '../../test/e2e/e2e-project.js';
import { git } from '../../test/support/temp-git-repo.js';
import { descendantsOf } from '../../test/support/process-tree.js';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';
import { listRuns, readJournal, type JournalEvent } from '../../src/state/index.js';
import { criticalPathOnSlots, idleWhileWaiting, layeredDag, listSchedule, peakOverlap, phaseDurations, type DagPhase, type SlotBound } from '../lib/dag-plan.js';
import { benchPhaseWork, createDagProject, timedDebussy, type TimedRun } from '../lib/dag-run.js';
import { figure, max, median, round, type BenchOptions, type Figure } from '../lib/figure.js';
import { jobRecords, killWorkers, leftRunning, processCpuS, startWorker, stopWorkers, type BenchWorker, type JobRecord, type WorkersStopped } from '../lib/queue-workers.js';
import { withTempDir } from '../lib/temp.js';
import { runParallel } from './8-parallel.js';

const LAYERS = 4;
const WIDTH = 6;
const WORKERS = 3;
const TO_CRITICAL_PATH = 1.3;

interface Lag {
  medianMs: number;
  worstMs: number;
}

export interface QueueRunSummary {
  workers: number;
  makespanS: number;
  cpuS: { submitter: number; workers: number[]; redis: number; server: number; total: number };
  machine: { busyS: number; busyShareOfAllCores: number; loadAverageBefore: number };
  /** phase_started -> phase_ended in the worker's checkout, per phase (ms). */
  phaseMs: Record<string, number>;
  phaseMsMedian: number;
  /** The bound at width 3 from these times (3 sessions at once on this machine). */
  criticalPathOnSlots: SlotBound;
  sessions: number;
  peakPhasesAtOnce: number;
  /** Jobs each worker ran, and how many times a job was taken in all (24: each once). */
  jobsPerWorker: Record<string, number>;
  jobStarts: number;
  gates: { phase: { count: number; ms: number }; earlierPhasesAgain: { count: number; ms: number } };
  /** Each step of a job's way, median and worst over the phases. */
  lags: Record<'readyToQueued' | 'queuedToTaken' | 'takenToRunStarted' | 'runStartedToPhaseStarted' | 'phase' | 'endedToFinished' | 'finishedToResult' | 'resultToMerged', Lag>;
  /** The 3 slots' time over the makespan (s): busy (a job taken -> finished: checkout, phase, push) and idle. */
  slotsS: { total: number; busy: number; phases: number; idleWhileQueued: number; idleWhileReadyNotQueued: number; idleNothingReady: number };
  spawnToFirstTakenS: number;
  lastFinishedToExitS: number;
  /** Per phase, s after the spawn: [ready, queued, taken, started, ended, finished, result seen, merged]. */
  timelineS: Record<string, number[]>;
  workersStopped: WorkersStopped['workers'];
  /** Processes the figure started still running after it stopped them (none, or the figure fails). */
  leftRunning: string[];
}

export interface QueueRunInput {
  plan: readonly DagPhase[];
  run: TimedRun;
  journal: JournalEvent[];
  /** Every job's run in every worker's checkout: one journal each. */
  workerRuns: JournalEvent[][];
  jobs: JobRecord[];
  stopped: WorkersStopped;
  redisCpuS: number;
  leftRunning: string[];
}

function lag(values: readonly number[]): Lag {
  return { medianMs: Math.round(median(values)), worstMs: Math.round(max(values)) };
}

function countAndSum(events: readonly { durationMs: number }[]): { count: number; ms: number } {
  return { count: events.length, ms: Math.round(events.reduce((sum, e) => sum + e.durationMs, 0)) };
}

/** What the queue run says, from the bench's clock, the submitter's and workers' journals and the queue's job records. */
export function summarizeQueueRun(input: QueueRunInput): QueueRunSummary {
  const { plan, run, journal, workerRuns, jobs } = input;
  const workerEvents = workerRuns.flat();
  const ended = eventsOf(journal, 'phase_ended');
  const notCompleted = plan.filter((p) => !ended.some((e) => e.phaseId === p.id && e.status === 'completed'));
  if (run.code !== 0 || notCompleted.length > 0) {
    const why = [...ended.filter((e) => e.status !== 'completed').map((e) => `phase ${e.phaseId} ${e.status}: ${e.reason ?? '-'}`), ...eventsOf(journal, 'run_ended').map((e) => `run ${e.status}: ${e.reason ?? '-'}`)];
    throw new Error(`bench: debussy run --queue exited ${String(run.code)} with phases ${notCompleted.map((p) => p.id).join(', ') || '(none)'} not completed; ${why.join('; ')}\n${run.stderr.slice(-3000)}`);
  }
  const at = (ts: string) => Date.parse(ts);
  const firstOf = (events: readonly { phaseId: string; ts: string }[]) => {
    const out = new Map<string, number>();
    for (const e of events) if (!out.has(e.phaseId)) out.set(e.phaseId, at(e.ts));
    return out;
  };
  const merged = firstOf(eventsOf(journal, 'phase_branch').filter((e) => e.stage === 'merged'));
  const queued = firstOf(eventsOf(journal, 'phase_job').filter((e) => e.stage === 'queued'));
  const results = eventsOf(journal, 'phase_job').filter((e) => e.stage === 'ended');
  const resultAt = new Map(results.map((e) => [e.phaseId, at(e.ts)]));
  const own = phaseDurations(workerEvents);
  const started = firstOf(eventsOf(workerEvents, 'phase_started'));
  // A job's run in the worker's checkout starts once the checkout is on the phase's branch.
  const runStarted = new Map<string, number>();
  for (const events of workerRuns) {
    const phaseId = eventsOf(events, 'phase_started')[0]?.phaseId;
    const at0 = eventsOf(events, 'run_started')[0]?.ts;
    if (phaseId !== undefined && at0 !== undefined && !runStarted.has(phaseId)) runStarted.set(phaseId, at(at0));
  }
  const job = new Map(jobs.map((j) => [j.phaseId, j]));
  const ready = (p: DagPhase) => (p.dependsOn.length === 0 ? run.startedAt : Math.max(...p.dependsOn.map((d) => merged.get(d) ?? Number.NaN)));
  const each = (f: (p: DagPhase) => number) => plan.map(f);
  const taken = (p: DagPhase) => job.get(p.id)?.takenAt ?? Number.NaN;
  const finished = (p: DagPhase) => job.get(p.id)?.finishedAt ?? Number.NaN;
  const endedAt = (p: DagPhase) => (started.get(p.id) ?? Number.NaN) + (own.get(p.id) ?? Number.NaN);

  const busy = plan.map((p) => [taken(p), finished(p)] as const);
  const slotsTotal = (run.wallMs / 1000) * WORKERS;
  const busyS = busy.reduce((sum, [a, b]) => sum + (b - a), 0) / 1000;
  const idleQueuedS = idleWhileWaiting(WORKERS, busy, plan.map((p) => [queued.get(p.id) ?? Number.NaN, taken(p)] as const)) / 1000;
  const idleReadyS = idleWhileWaiting(WORKERS, busy, plan.map((p) => [ready(p), taken(p)] as const)) / 1000;
  const sinceSpawn = (ms: number) => round((ms - run.startedAt) / 1000, 1);
  const workerCpu = input.stopped.workers.map((w) => round(w.cpuS.user + w.cpuS.system, 2));
  const submitterCpu = run.cpuS.user + run.cpuS.system;
  const jobsPerWorker: Record<string, number> = {};
  for (const e of results) jobsPerWorker[e.worker ?? '?'] = (jobsPerWorker[e.worker ?? '?'] ?? 0) + 1;
  return {
    workers: WORKERS,
    makespanS: round(run.wallMs / 1000, 2),
    cpuS: {
      submitter: round(submitterCpu, 2), workers: workerCpu, redis: round(input.redisCpuS, 2), server: round(run.serverCpuS, 2),
      total: round(submitterCpu + workerCpu.reduce((a, b) => a + b, 0) + input.redisCpuS + run.serverCpuS, 2),
    },
    machine: { busyS: round(run.machineBusyS, 1), busyShareOfAllCores: round(run.machineBusyShare, 2), loadAverageBefore: round(run.loadAverageBefore, 2) },
    phaseMs: Object.fromEntries(plan.map((p) => [p.id, own.get(p.id) ?? Number.NaN])),
    phaseMsMedian: median([...own.values()]),
    criticalPathOnSlots: criticalPathOnSlots(plan, own, WORKERS),
    sessions: eventsOf(workerEvents, 'session_started').length,
    peakPhasesAtOnce: peakOverlap(plan.map((p) => [started.get(p.id) ?? 0, endedAt(p)] as const)),
    jobsPerWorker,
    jobStarts: jobs.reduce((sum, j) => sum + j.starts, 0),
    gates: { phase: countAndSum(eventsOf(workerEvents, 'gate_result')), earlierPhasesAgain: countAndSum(eventsOf(journal, 'regression_result')) },
    lags: {
      readyToQueued: lag(each((p) => (queued.get(p.id) ?? Number.NaN) - ready(p))),
      queuedToTaken: lag(each((p) => taken(p) - (queued.get(p.id) ?? Number.NaN))),
      takenToRunStarted: lag(each((p) => (runStarted.get(p.id) ?? Number.NaN) - taken(p))),
      runStartedToPhaseStarted: lag(each((p) => (started.get(p.id) ?? Number.NaN) - (runStarted.get(p.id) ?? Number.NaN))),
      phase: lag(each((p) => own.get(p.id) ?? Number.NaN)),
      endedToFinished: lag(each((p) => finished(p) - endedAt(p))),
      finishedToResult: lag(each((p) => (resultAt.get(p.id) ?? Number.NaN) - finished(p))),
      resultToMerged: lag(each((p) => (merged.get(p.id) ?? Number.NaN) - (resultAt.get(p.id) ?? Number.NaN))),
    },
    slotsS: {
      total: round(slotsTotal, 1), busy: round(busyS, 1), phases: round([...own.values()].reduce((a, b) => a + b, 0) / 1000, 1),
      idleWhileQueued: round(idleQueuedS, 1), idleWhileReadyNotQueued: round(idleReadyS - idleQueuedS, 1), idleNothingReady: round(slotsTotal - busyS - idleReadyS, 1),
    },
    spawnToFirstTakenS: sinceSpawn(Math.min(...plan.map(taken))),
    lastFinishedToExitS: round((run.startedAt + run.wallMs - Math.max(...plan.map(finished))) / 1000, 1),
    timelineS: Object.fromEntries(plan.map((p) => [p.id, [ready(p), queued.get(p.id) ?? Number.NaN, taken(p), started.get(p.id) ?? Number.NaN, endedAt(p), finished(p), resultAt.get(p.id) ?? Number.NaN, merged.get(p.id) ?? Number.NaN].map(sinceSpawn)])),
    workersStopped: input.stopped.workers,
    leftRunning: input.leftRunning,
  };
}

async function journalsIn(dir: string): Promise<JournalEvent[][]> {
  const runs = await listRuns(dir);
  return Promise.all(runs.map(async (r) => (await readJournal(path.join(r.dir, 'journal.ndjson'))).events));
}

/** The plan through the queue: Redis, a bare remote, 3 workers, the timed submitter; everything stopped after. */
export async function runOnQueue(plan: readonly DagPhase[], scratch: string, options: BenchOptions): Promise<QueueRunSummary> {
  const project = await createDagProject(plan, benchPhaseWork(options.quick));
  let redis: RedisServer | undefined;
  const workers: BenchWorker[] = [];
  let workersStopped = false;
  try {
    redis = await startRedisServer();
    const bare = path.join(scratch, 'remote.git');
    await git(scratch, 'clone', '--quiet', '--bare', project.dir, bare);
    await project.git('remote', 'add', 'origin', bare);
    // A worker's checkout is a repository of its own: its commits need an author (the project's HOME has no git config).
    const env = project.env({ GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'worker@debussy.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'worker@debussy.invalid' });
    for (let i = 1; i <= WORKERS; i++) workers.push(await startWorker(`worker-${i}`, scratch, redis.url, env, scratch));
    options.log(`debussy run --queue ${redis.url} with ${WORKERS} workers: ${plan.length} phases`);
    const redisCpuBefore = processCpuS(redis.pid);
    const run = await timedDebussy(project, ['run', project.planArg, '--queue', redis.url], scratch, 'queue');
    const redisCpuS = processCpuS(redis.pid) - redisCpuBefore;
    const jobs = await jobRecords(redis.url);
    const journal = await project.journal();
    const workerRuns = (await Promise.all(workers.map((w) => journalsIn(w.dir)))).flat();
    // Everything the figure started, taken before the stop: the workers, what runs under them, Redis.
    const pids = [redis.pid, ...workers.flatMap((w) => [w.rootPid, w.pid]), ...(await Promise.all(workers.map((w) => descendantsOf(w.rootPid)))).flat()];
    const stopped = await stopWorkers(workers);
    workersStopped = true;
    await redis.stop();
    const left = await leftRunning(pids, [project.dir, scratch]);
    let summary: QueueRunSummary;
    try {
      summary = summarizeQueueRun({ plan, run, journal, workerRuns, jobs, stopped, redisCpuS, leftRunning: left });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${workers.map((w) => `${w.name}: ${w.output().slice(-2000)}`).join('\n')}`);
    }
    options.log(`--queue, ${WORKERS} workers: ${summary.makespanS} s, CPU ${summary.cpuS.total} s, ${left.length} process(es) left running`);
    return summary;
  } finally {
    if (!workersStopped) await killWorkers(workers);
    await redis?.stop();
    await project.dispose();
  }
}

export async function queueMakespan(options: BenchOptions): Promise<Figure> {
  const plan = layeredDag(LAYERS, WIDTH);
  const work = benchPhaseWork(options.quick);
  return withTempDir('queue', async (scratch) => {
    const queued = await runOnQueue(plan, scratch, options);
    const one = await runParallel(plan, work, 1, scratch, options);
    const alone = new Map(Object.entries(one.phaseMs));
    const bound = criticalPathOnSlots(plan, alone, WORKERS);
    const greedy = listSchedule(plan, alone, WORKERS);
    const boundS = bound.ms / 1000;
    const toBound = queued.makespanS / boundS;
    const clean = queued.leftRunning.length === 0 && queued.workersStopped.every((w) => w.code === 0 && w.signal === null);
    return figure({
      id: 9, name: `Job queue (${WORKERS} workers)`, value: queued.makespanS, unit: 's', limit: boundS,
      target: `makespan <= ${TO_CRITICAL_PATH} x the critical path at width ${WORKERS} (the least time on ${WORKERS} slots, phase times from the --parallel 1 run), workers exit 0 on SIGTERM, nothing left running`,
      met: toBound <= TO_CRITICAL_PATH && clean,
      details: {
        plan: { phases: plan.length, layers: LAYERS, width: WIDTH, workers: WORKERS, dependencies: plan.map((p) => `${p.id}<-${p.dependsOn.join(',') || '-'}`).join(' ') },
        work,
        criticalPathAtWidth3: { s: round(boundS, 2), boundBy: bound.boundBy, longestChainS: round(bound.longestChain.ms / 1000, 2), longestChain: bound.longestChain.phases, workPerSlotS: round(bound.workPerSlotMs / 1000, 2), greedyScheduleS: round(greedy.ms / 1000, 2) },
        toCriticalPath: round(toBound, 3),
        toLongestChain: round(queued.makespanS / (bound.longestChain.ms / 1000), 3),
        toGreedySchedule: round(queued.makespanS / (greedy.ms / 1000), 3),
        criticalPathFromQueueTimesS: round(queued.criticalPathOnSlots.ms / 1000, 2),
        toCriticalPathFromQueueTimes: round(queued.makespanS / (queued.criticalPathOnSlots.ms / 1000), 3),
        toParallel1: round(queued.makespanS / one.makespanS, 3),
        clean,
        queue: queued,
        parallel1: one,
        note: `makespan = spawn to exit of debussy run --queue; phase times = journal phase_started -> phase_ended (session + gate), in the worker's checkout for the queue; job steps from the submitter's journal (ready = last dependency merged, queued, result seen, merged), the queue's job records (taken, finished: BullMQ's processedOn, finishedOn) and the workers' journals (started, ended); slotsS: ${WORKERS} x the makespan, busy = taken -> finished; cpuS: submitter and each worker with every process it waited for (/usr/bin/time; a worker's includes its start and stop), Redis (/proc), the scripted server (the bench process); machine = /proc/stat over the run, other work included`,
      },
    });
  });
}
