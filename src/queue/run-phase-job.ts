/**
 * One phase job run in a worker's checkout exactly as `debussy run PLAN --only ID` runs it, in this
 * process: the project's config and plan as the run's branch holds them, the phase's sessions,
 * restarts, checkpoints, gates and commits; a phase taken over from another worker starts from
 * the checkpoint that worker pushed. Only the master plan's Status cells are left alone: the
 * submitter writes them, in the run's branch (one writer, as under --parallel).
 */
import path from 'node:path';
import { loadProjectConfig } from '../config/index.js';
import { runSpend } from '../cost/index.js';
import { loadAuditedPlan } from '../orchestrator/preflight.js';
import type { PhaseCarry } from '../orchestrator/phase-context.js';
import { runPlan } from '../orchestrator/run-plan.js';
import { combineReporters, type Reporter } from '../report/reporter.js';
import type { RunState } from '../state/index.js';
import type { PhaseJob, PhaseJobResult } from './phase-job.js';

export interface PhaseJobRun {
  dir: string;
  job: PhaseJob;
  /** The worker's own reporters (its output lines). */
  reporters: Reporter[];
  interrupt: AbortSignal;
  forceStop: AbortSignal;
  env: NodeJS.ProcessEnv;
  worker: string;
  /** The checkpoint the phase starts from when a worker before this one ran it (takeover.ts). */
  takeover?: PhaseCarry;
}

export async function runPhaseJob(input: PhaseJobRun): Promise<Omit<PhaseJobResult, 'commitSha'>> {
  const { dir, job } = input;
  const resolved = await loadProjectConfig(dir, { update_plan_status: false });
  const { plan } = await loadAuditedPlan(path.join(dir, job.planPath), resolved.config, dir, { only: job.phaseId });
  let final: RunState | undefined;
  const result = await runPlan({
    root: dir, plan, config: { ...resolved.config, update_plan_status: false, max_parallel: 1 }, only: job.phaseId,
    // Each job is a run of its own in this checkout: what an earlier job (maybe of another run) left in its journal is not this one's.
    fresh: true,
    reporter: combineReporters([...input.reporters, { runFinished: (state) => (final = state) }]),
    interrupt: input.interrupt, forceStop: input.forceStop, env: input.env,
    resumeCommand: `debussy run ${job.planPath} --only ${job.phaseId}`,
    // Its checkpoints carry the progress recorded, for a worker that may have to take the phase over.
    progressInCommits: true,
    ...(input.takeover === undefined ? {} : { startCarry: input.takeover }),
    ...(resolved.file === undefined ? {} : { configFile: resolved.file }),
  });
  const status = result.status === 'running' ? 'aborted' : result.status;
  return {
    status, exitCode: result.exitCode, costUsd: final === undefined ? 0 : runSpend(final).usd, worker: input.worker,
    ...(final?.reason === undefined ? {} : { reason: final.reason }),
  };
}
