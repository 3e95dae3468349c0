/**
 * Plans and configs a CI workflow cannot run as asked, each with the fix. Pure: the command turns
 * a refusal into its error and exit code.
 */
import type { DebussyConfig } from '../config/schema.js';
import { parallelPair, type PhaseJob } from './ci-jobs.js';
import { unsafePathProblem } from './workflow-text.js';

export interface CiRefusal {
  kind: 'usage' | 'config';
  message: string;
  hint: string;
}

export interface RefusalInput {
  /** The master plan relative to the repository root, or undefined when it lies outside it. */
  planPath: string | undefined;
  config: Pick<DebussyConfig, 'auto_commit' | 'update_plan_status'>;
  phaseJobs: readonly PhaseJob[];
}

export function ciRefusal(input: RefusalInput): CiRefusal | undefined {
  if (input.planPath === undefined) {
    return { kind: 'usage', message: 'the plan is outside this git repository: the jobs check out the repository and find nothing else', hint: 'Pass a master plan inside the repository.' };
  }
  const unsafe = unsafePathProblem(input.planPath);
  if (unsafe !== undefined) {
    return { kind: 'usage', message: `the plan path ${JSON.stringify(input.planPath)} cannot go into a workflow: ${unsafe}`, hint: 'Rename the plan folder or file.' };
  }
  if (!input.config.auto_commit) {
    return {
      kind: 'config', message: "auto_commit is off: a job's work would exist only in its runner's workspace, which is gone when the job ends",
      hint: 'Remove auto_commit: false from .debussy/config.yaml.',
    };
  }
  const pair = input.config.update_plan_status ? parallelPair(input.phaseJobs) : undefined;
  if (pair !== undefined) {
    return {
      kind: 'config',
      message: `update_plan_status is on: phases ${pair[0]} and ${pair[1]} run at the same time, and their Status cells, on neighbouring lines of the master plan, would conflict when their work is merged`,
      hint: "Set update_plan_status: false in .debussy/config.yaml (the workflow records each completion in the phase's branch instead).",
    };
  }
  return undefined;
}
