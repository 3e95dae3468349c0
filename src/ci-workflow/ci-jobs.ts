/**
 * Which phases of a plan get a CI job, what each job waits for, and in which order the last jobs
 * merge and verify them. One phase run in one checkout is the unit (`debussy run PLAN --only ID`);
 * the dependency graph places the units. Pure: plan in, job plan out.
 */
import { executionOrder } from '../plan/graph.js';
import type { Phase, Plan } from '../plan/types.js';

export interface PhaseJob {
  phase: Phase;
  /** The workflow's job id: `phase-` and the phase id, its dots as underscores (ids hold no `_`, so no two phases share one). */
  jobId: string;
  /** The phases it depends on that have jobs too, in the plan's order: their work is merged in before it starts. */
  dependsOn: string[];
  /** The job ids of those phases: the job's `needs:`. */
  needs: string[];
}

export interface CiJobPlan {
  /** A job per phase not already complete, in execution order. */
  phaseJobs: PhaseJob[];
  /** Phases the master plan marks complete: no job; their work is on the run branch already. */
  completed: Phase[];
  /** Every phase in execution order: the verify job runs `debussy done --verify` for each. */
  verifyOrder: string[];
}

export function phaseJobId(phaseId: string): string {
  return `phase-${phaseId.replace(/\./g, '_')}`;
}

export function planCiJobs(plan: Plan): CiJobPlan {
  const ordered = executionOrder(plan);
  const completed = ordered.filter((phase) => phase.status === 'completed');
  const withJobs = new Set(ordered.filter((phase) => phase.status !== 'completed').map((phase) => phase.id));
  const phaseJobs = ordered
    .filter((phase) => withJobs.has(phase.id))
    .map((phase) => {
      const dependsOn = phase.dependsOn.filter((id) => withJobs.has(id));
      return { phase, jobId: phaseJobId(phase.id), dependsOn, needs: dependsOn.map(phaseJobId) };
    });
  return { phaseJobs, completed, verifyOrder: ordered.map((phase) => phase.id) };
}

/**
 * Two phase jobs that may run at the same time (neither depends on the other, directly or through
 * others), or undefined when every job waits for the one before. Their commits meet only when the
 * verify job merges them.
 */
export function parallelPair(jobs: readonly PhaseJob[]): [string, string] | undefined {
  const reaches = new Map<string, Set<string>>();
  // Execution order: every dependency's set is complete before a dependant reads it.
  for (const job of jobs) {
    const before = new Set<string>();
    for (const dependency of job.dependsOn) {
      before.add(dependency);
      for (const earlier of reaches.get(dependency) ?? []) before.add(earlier);
    }
    reaches.set(job.phase.id, before);
  }
  for (const [index, later] of jobs.entries()) {
    for (const earlier of jobs.slice(0, index)) {
      if (!reaches.get(later.phase.id)?.has(earlier.phase.id)) return [earlier.phase.id, later.phase.id];
    }
  }
  return undefined;
}
