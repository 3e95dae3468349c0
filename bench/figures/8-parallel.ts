/**
 * Figure 8, phases at once: a plan of 24 scripted phases in 4 layers of 6 (each phase depends on
 * one or two of the layer before: width 6, a critical path of 4 phases), each one real claude
 * session against the scripted server that mostly waits (three model responses after
 * `modelLatencyMs` each, a tool that runs `(sleep N)`), as real sessions mostly wait on the model.
 * `debussy run` runs it twice in this figure, each in a fresh repository: at --parallel 6 and at
 * --parallel 1.
 *
 * Measured: the --parallel 6 makespan (spawn to exit of `debussy run`), against
 *   - the critical path: the longest dependency chain, each phase weighted by its time from
 *     phase_started to phase_ended (its session and gates) in the --parallel 1 run's journal, where
 *     each phase had the machine to itself: what the plan would take with unlimited slots and no
 *     cost of running phases side by side. The same path from the --parallel 6 run's own times is
 *     recorded beside it: the gap between the two is what 6 sessions at once cost each other on
 *     this machine's cores; the rest is the supervisor's (worktrees, one merge at a time with the
 *     regression gates, status commits);
 *   - the --parallel 1 makespan.
 * CPU: debussy and everything under it (/usr/bin/time), the scripted server, the whole machine.
 *
 * Figure 9 (the job queue, 3 workers: 9-queue.ts) runs the same plan and work, and `runParallel`
 * below for its phases' times alone.
 */
import { eventsOf } from '../../test/e2e/e2e-project.js';
import type { JournalEvent } from '../../src/state/index.js';
import { criticalPath, layeredDag, peakOverlap, phaseDurations, type CriticalPath, type DagPhase } from '../lib/dag-plan.js';
import { benchPhaseWork, createDagProject, timedDebussy, type PhaseWork, type TimedRun } from '../lib/dag-run.js';
import { figure, median, max, round, type BenchOptions, type Figure } from '../lib/figure.js';
import { withTempDir } from '../lib/temp.js';

const LAYERS = 4;
const WIDTH = 6;
const TO_CRITICAL_PATH = 1.2;
const TO_ONE_AT_A_TIME = 0.3;

export interface RunSummary {
  parallel: number;
  makespanS: number;
  cpuS: { user: number; system: number; total: number; server: number };
  machine: { busyS: number; busyShareOfAllCores: number; loadAverageBefore: number };
  /** phase_started -> phase_ended, per phase (ms). */
  phaseMs: Record<string, number>;
  phaseMsMedian: number;
  criticalPath: CriticalPath;
  sessions: number;
  peakPhasesAtOnce: number;
  /** Gates run by the phases themselves (gate_result), and gates of earlier phases run again (regression_result: on each merged tree under --parallel, and the run's end check): count and summed ms. */
  gates: { phase: { count: number; ms: number }; earlierPhasesAgain: { count: number; ms: number } };
  /** --parallel only, medians and worst: last dependency merged (or the run's start) -> the phase's worktree made -> phase_started; phase_ended -> merged; the last merge -> exit. */
  readyToWorktreeMsMedian?: number;
  readyToWorktreeMsWorst?: number;
  worktreeToStartMsMedian?: number;
  worktreeToStartMsWorst?: number;
  startLagMsMedian?: number;
  startLagMsWorst?: number;
  mergeLagMsMedian?: number;
  mergeLagMsWorst?: number;
  lastMergeToExitMs?: number;
  /** Per phase, seconds after the spawn: [phase_started, phase_ended, merged (--parallel)]. */
  timelineS: Record<string, number[]>;
}

/** What one timed run of the plan says, from the bench's clock and the run's journal. */
export function summarizeRun(plan: readonly DagPhase[], parallel: number, run: TimedRun, journal: JournalEvent[]): RunSummary {
  const ended = eventsOf(journal, 'phase_ended');
  const notCompleted = plan.filter((p) => !ended.some((e) => e.phaseId === p.id && e.status === 'completed'));
  if (run.code !== 0 || notCompleted.length > 0) {
    throw new Error(`bench: debussy run --parallel ${parallel} exited ${String(run.code)} with phases ${notCompleted.map((p) => p.id).join(', ') || '(none)'} not completed: ${run.stdout.slice(-1500)}${run.stderr.slice(-1500)}`);
  }
  const durations = phaseDurations(journal);
  const at = (ts: string) => Date.parse(ts);
  const started = new Map(eventsOf(journal, 'phase_started').map((e) => [e.phaseId, at(e.ts)]));
  const spans = plan.map((p) => [started.get(p.id) ?? 0, (started.get(p.id) ?? 0) + (durations.get(p.id) ?? 0)] as const);
  const summary: RunSummary = {
    parallel,
    makespanS: round(run.wallMs / 1000, 2),
    cpuS: { user: run.cpuS.user, system: run.cpuS.system, total: round(run.cpuS.user + run.cpuS.system, 2), server: round(run.serverCpuS, 2) },
    machine: { busyS: round(run.machineBusyS, 1), busyShareOfAllCores: round(run.machineBusyShare, 2), loadAverageBefore: round(run.loadAverageBefore, 2) },
    phaseMs: Object.fromEntries(plan.map((p) => [p.id, durations.get(p.id) ?? Number.NaN])),
    phaseMsMedian: median([...durations.values()]),
    criticalPath: criticalPath(plan, durations),
    sessions: eventsOf(journal, 'session_started').length,
    peakPhasesAtOnce: peakOverlap(spans),
    timelineS: {},
    gates: { phase: countAndSum(eventsOf(journal, 'gate_result')), earlierPhasesAgain: countAndSum(eventsOf(journal, 'regression_result')) },
  };
  const merged = new Map(eventsOf(journal, 'phase_branch').filter((e) => e.stage === 'merged').map((e) => [e.phaseId, at(e.ts)]));
  const sinceSpawn = (ms: number | undefined) => (ms === undefined ? [] : [round((ms - run.startedAt) / 1000, 1)]);
  summary.timelineS = Object.fromEntries(plan.map((p, i) => [p.id, [...sinceSpawn(spans[i]?.[0]), ...sinceSpawn(spans[i]?.[1]), ...sinceSpawn(merged.get(p.id))]]));
  if (parallel > 1 && merged.size > 0) {
    const ready = (p: DagPhase) => (p.dependsOn.length === 0 ? run.startedAt : Math.max(...p.dependsOn.map((d) => merged.get(d) ?? Number.NaN)));
    const worktree = new Map(eventsOf(journal, 'phase_branch').filter((e) => e.stage === 'worktree').map((e) => [e.phaseId, at(e.ts)]));
    const toWorktree = plan.map((p) => (worktree.get(p.id) ?? Number.NaN) - ready(p));
    const toStart = plan.map((p) => (started.get(p.id) ?? 0) - (worktree.get(p.id) ?? Number.NaN));
    const startLags = plan.map((p) => (started.get(p.id) ?? 0) - ready(p));
    const mergeLags = plan.map((p) => (merged.get(p.id) ?? Number.NaN) - ((started.get(p.id) ?? 0) + (durations.get(p.id) ?? 0)));
    Object.assign(summary, {
      readyToWorktreeMsMedian: median(toWorktree), readyToWorktreeMsWorst: max(toWorktree),
      worktreeToStartMsMedian: median(toStart), worktreeToStartMsWorst: max(toStart),
      startLagMsMedian: median(startLags), startLagMsWorst: max(startLags),
      mergeLagMsMedian: median(mergeLags), mergeLagMsWorst: max(mergeLags),
      lastMergeToExitMs: Math.round(run.startedAt + run.wallMs - max([...merged.values()])),
    });
  }
  return summary;
}

function countAndSum(events: readonly { durationMs: number }[]): { count: number; ms: number } {
  return { count: events.length, ms: Math.round(events.reduce((sum, e) => sum + e.durationMs, 0)) };
}

/** The plan run by `debussy run --parallel N` in a fresh project, timed and summed up. */
export async function runParallel(plan: readonly DagPhase[], work: PhaseWork, parallel: number, timesDir: string, options: BenchOptions): Promise<RunSummary> {
  const project = await createDagProject(plan, work);
  try {
    options.log(`debussy run --parallel ${parallel}: ${plan.length} phases`);
    const run = await timedDebussy(project, ['run', project.planArg, '--parallel', String(parallel)], timesDir, `parallel-${parallel}`);
    const summary = summarizeRun(plan, parallel, run, await project.journal());
    options.log(`--parallel ${parallel}: ${summary.makespanS} s, CPU ${summary.cpuS.total} s, critical path ${round(summary.criticalPath.ms / 1000, 2)} s`);
    return summary;
  } finally {
    await project.dispose();
  }
}

export async function parallelMakespan(options: BenchOptions): Promise<Figure> {
  const plan = layeredDag(LAYERS, WIDTH);
  const work = benchPhaseWork(options.quick);
  return withTempDir('parallel', async (timesDir) => {
    const wide = await runParallel(plan, work, WIDTH, timesDir, options);
    const one = await runParallel(plan, work, 1, timesDir, options);
    const criticalS = one.criticalPath.ms / 1000;
    const toCritical = wide.makespanS / criticalS;
    const toOne = wide.makespanS / one.makespanS;
    return figure({
      id: 8, name: 'Phases at once (--parallel 6)', value: wide.makespanS, unit: 's', limit: criticalS,
      target: `makespan <= ${TO_CRITICAL_PATH} x the critical path (from the --parallel 1 run's phase times) and < ${TO_ONE_AT_A_TIME} x the --parallel 1 makespan`,
      met: toCritical <= TO_CRITICAL_PATH && toOne < TO_ONE_AT_A_TIME,
      details: {
        plan: { phases: plan.length, layers: LAYERS, width: WIDTH, dependencies: plan.map((p) => `${p.id}<-${p.dependsOn.join(',') || '-'}`).join(' ') },
        work,
        toCriticalPath: round(toCritical, 3),
        toParallel1: round(toOne, 3),
        criticalPathFromParallel6TimesS: round(wide.criticalPath.ms / 1000, 2),
        toCriticalPathFromParallel6Times: round(wide.makespanS / (wide.criticalPath.ms / 1000), 3),
        parallel6: wide,
        parallel1: one,
        note: 'makespan = spawn to exit of debussy run; phase times = journal phase_started -> phase_ended (session + gates); cpuS = user+sys of debussy and every process it waited for (claude, tools, gates, git) from /usr/bin/time, server = the scripted server in the bench process; machine = /proc/stat over the run, other work included',
      },
    });
  });
}
