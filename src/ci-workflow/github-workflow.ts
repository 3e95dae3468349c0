/**
 * A GitHub Actions workflow that runs a plan on CI runners: a job per phase not yet complete, each
 * `debussy run PLAN --only ID` in its own checkout, started once the phases it depends on are done
 * (`needs:`); then a verify job that merges every phase's work into the run branch in execution
 * order and runs `debussy done --verify` for every phase; then a push job, the only one that may
 * write to the repository, which runs nothing the agent wrote. Pure: plan and options in, the
 * workflow's data out (render-workflow.ts writes it as YAML). job-scripts.ts says where work lives.
 */
import type { Plan } from '../plan/types.js';
import type { AgentSecret } from './agent-secrets.js';
import { planCiJobs, type PhaseJob } from './ci-jobs.js';
import {
  BUNDLE_PHASE_SCRIPT, BUNDLE_RUN_SCRIPT, GIT_IDENTITY_SCRIPT, KEEP_WORK_SCRIPT, MERGE_PHASES_SCRIPT, PREPARE_PHASE_SCRIPT, PUSH_SCRIPT, RUN_PHASE_SCRIPT,
  VERIFY_PHASES_SCRIPT, installScript,
} from './job-scripts.js';
import { PUSH_JOB_TIMEOUT, phaseJobTimeout, verifyJobTimeout, type TimeoutLimits } from './job-timeouts.js';
import { displayText, planSlug } from './workflow-text.js';


export interface CiWorkflowOptions {
  /** What `npm pack` fetches for debussy: a published version (`debussy@0.2.0`), a tarball URL or a git URL. */
  debussyPackage: string;
  /** The `@anthropic-ai/claude-code` version the phase jobs install. */
  claudeCodeVersion: string;
  nodeVersion: string;
  secret: AgentSecret;
  /** Shell commands that set the project up in every job that runs its code (`npm ci`). */
  setup: string[];
}

export interface CiWorkflowInput {
  plan: Plan;
  /** The master plan relative to the repository root, with forward slashes: where every job finds it. */
  planPath: string;
  limits: TimeoutLimits;
  options: CiWorkflowOptions;
}

export interface WorkflowStep {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
  run?: string;
}

export interface WorkflowJob {
  name: string;
  needs?: string[];
  if?: string;
  'runs-on': string;
  'timeout-minutes': number;
  permissions?: Record<string, 'read' | 'write'>;
  env?: Record<string, string>;
  steps: WorkflowStep[];
}

export interface GithubWorkflow {
  name: string;
  on: { workflow_dispatch: { inputs: Record<string, { description: string; type: 'string'; required: boolean; default: string }> } };
  permissions: Record<string, 'read' | 'write'>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  env: Record<string, string>;
  defaults: { run: { shell: string } };
  jobs: Record<string, WorkflowJob>;
}

/** The actions the jobs use, by major version (node24-based checkout and setup-node). */
export const ACTIONS = {
  checkout: 'actions/checkout@v5',
  setupNode: 'actions/setup-node@v5',
  upload: 'actions/upload-artifact@v4',
  download: 'actions/download-artifact@v4',
} as const;

const RUN_BRANCH = '${{ inputs.run_branch || github.ref_name }}';
const BUNDLES_IN = '${{ runner.temp }}/debussy-bundles';
const BUNDLES_OUT = '${{ runner.temp }}/debussy-bundle-out/';
const RAN_HERE = "steps.prepare.outputs.complete == 'false'";
// Uploads overwrite: "Re-run failed jobs" uploads a job's artifacts again, in the same workflow run.
export const VERIFY_JOB = 'verify';
export const PUSH_JOB = 'push';

function checkout(keepCredentials: boolean): WorkflowStep {
  // Where the agent or the project's code runs, the checkout keeps no token: they never hold one.
  const settings: Record<string, string | number | boolean> = { ref: '${{ env.DEBUSSY_CI_RUN_BRANCH }}', 'fetch-depth': 0 };
  if (!keepCredentials) settings['persist-credentials'] = false;
  return { name: 'Check out the run branch', uses: ACTIONS.checkout, with: settings };
}

function identity(): WorkflowStep {
  return { name: 'Git identity for the commits', run: GIT_IDENTITY_SCRIPT };
}

/** Node, the project's set-up and debussy; in a phase job only when the phase runs (`when`). */
function toolSteps(options: CiWorkflowOptions, withClaudeCode: boolean, when?: string): WorkflowStep[] {
  const condition = when === undefined ? {} : { if: when };
  return [
    { name: 'Set up Node', ...condition, uses: ACTIONS.setupNode, with: { 'node-version': options.nodeVersion } },
    ...options.setup.map((command) => ({ name: `Set up the project: ${displayText(command)}`, ...condition, run: command })),
    {
      name: withClaudeCode ? 'Install Claude Code and debussy' : 'Install debussy',
      id: 'install',
      ...condition,
      env: { DEBUSSY_CI_PACKAGE: options.debussyPackage, ...(withClaudeCode ? { DEBUSSY_CI_CLAUDE_CODE_VERSION: options.claudeCodeVersion } : {}) },
      run: installScript(withClaudeCode),
    },
  ];
}

function downloadBundles(): WorkflowStep {
  return { name: 'Fetch the work of the jobs before', uses: ACTIONS.download, with: { pattern: 'debussy-bundle-*', 'merge-multiple': true, path: BUNDLES_IN } };
}

function phaseJob(job: PhaseJob, input: CiWorkflowInput): WorkflowJob {
  const { phase } = job;
  const gates = phase.file?.gates.length ?? 0;
  return {
    name: displayText(`Phase ${phase.id}: ${phase.title}`),
    ...(job.needs.length > 0 ? { needs: job.needs } : {}),
    'runs-on': 'ubuntu-latest',
    'timeout-minutes': phaseJobTimeout(input.limits, gates),
    env: { DEBUSSY_CI_PHASE: phase.id, DEBUSSY_CI_DEPENDS_ON: job.dependsOn.join(' ') },
    steps: [
      checkout(false),
      identity(),
      ...(job.dependsOn.length > 0 ? [downloadBundles()] : []),
      { name: 'Prepare the phase branch', id: 'prepare', run: PREPARE_PHASE_SCRIPT },
      // A phase complete already costs a checkout: nothing is installed for it.
      ...toolSteps(input.options, true, RAN_HERE),
      {
        name: `Run phase ${phase.id}`, id: 'run', if: RAN_HERE,
        env: { [input.options.secret]: `\${{ secrets.${input.options.secret} }}` },
        run: RUN_PHASE_SCRIPT,
      },
      // Also after a failure or a cancel: the work is kept, committed or not.
      { name: 'Commit what the phase left uncommitted', id: 'keep-work', if: `always() && ${RAN_HERE}`, run: KEEP_WORK_SCRIPT },
      { name: "Bundle the phase's commits", id: 'bundle', if: `always() && ${RAN_HERE}`, run: BUNDLE_PHASE_SCRIPT },
      {
        name: "Keep the phase's commits for the next jobs", if: `always() && ${RAN_HERE}`, uses: ACTIONS.upload,
        with: { name: `debussy-bundle-phase-${phase.id}`, path: BUNDLES_OUT, 'if-no-files-found': 'ignore', overwrite: true },
      },
      {
        name: "Keep debussy's journal and session logs", if: `always() && ${RAN_HERE}`, uses: ACTIONS.upload,
        with: { name: `debussy-logs-phase-${phase.id}`, path: '.debussy/runs/', 'include-hidden-files': true, 'if-no-files-found': 'ignore', overwrite: true },
      },
    ],
  };
}

function verifyJob(jobs: PhaseJob[], verifyOrder: string[], input: CiWorkflowInput): WorkflowJob {
  const gates = input.plan.phases.reduce((sum, phase) => sum + (phase.file?.gates.length ?? 0), 0);
  return {
    name: 'Merge the phases into the run branch and verify every phase',
    ...(jobs.length > 0 ? { needs: jobs.map((job) => job.jobId) } : {}),
    'runs-on': 'ubuntu-latest',
    'timeout-minutes': verifyJobTimeout(input.limits, gates),
    env: { DEBUSSY_CI_PHASE_JOBS: jobs.map((job) => job.phase.id).join(' '), DEBUSSY_CI_ALL_PHASES: verifyOrder.join(' ') },
    steps: [
      checkout(false),
      ...toolSteps(input.options, false),
      identity(),
      ...(jobs.length > 0 ? [downloadBundles()] : []),
      { name: 'Merge the phase branches in execution order', id: 'merge', run: MERGE_PHASES_SCRIPT },
      { name: 'Verify every phase (debussy done --verify)', id: 'verify', run: VERIFY_PHASES_SCRIPT },
      { name: 'Bundle the merged run branch', id: 'bundle', run: BUNDLE_RUN_SCRIPT },
      { name: 'Keep the merged run branch for the push', uses: ACTIONS.upload, with: { name: 'debussy-bundle-run', path: BUNDLES_OUT, 'if-no-files-found': 'ignore', overwrite: true } },
    ],
  };
}

function pushJob(jobs: PhaseJob[]): WorkflowJob {
  return {
    name: 'Push the phase branches and the verified run branch',
    needs: [...jobs.map((job) => job.jobId), VERIFY_JOB],
    // Whatever failed before: the work of every phase that made commits is pushed to its branch.
    if: 'always()',
    'runs-on': 'ubuntu-latest',
    'timeout-minutes': PUSH_JOB_TIMEOUT,
    permissions: { contents: 'write' },
    env: { DEBUSSY_CI_PHASE_JOBS: jobs.map((job) => job.phase.id).join(' ') },
    steps: [checkout(true), downloadBundles(), { name: 'Push (never forced)', id: 'push', run: PUSH_SCRIPT }],
  };
}

export function buildGithubWorkflow(input: CiWorkflowInput): GithubWorkflow {
  const { phaseJobs, verifyOrder } = planCiJobs(input.plan);
  const jobs: Record<string, WorkflowJob> = {};
  for (const job of phaseJobs) jobs[job.jobId] = phaseJob(job, input);
  jobs[VERIFY_JOB] = verifyJob(phaseJobs, verifyOrder, input);
  jobs[PUSH_JOB] = pushJob(phaseJobs);
  return {
    name: displayText(`debussy: ${input.plan.name}`),
    on: {
      workflow_dispatch: {
        inputs: {
          run_branch: {
            description: 'The branch the phases start from and their verified work is pushed to (empty: the branch this workflow runs on)',
            type: 'string', required: false, default: '',
          },
        },
      },
    },
    permissions: { contents: 'read' },
    // One run per run branch at a time: two would race for its phase branches and its push.
    concurrency: { group: `debussy-${RUN_BRANCH}`, 'cancel-in-progress': false },
    env: { DEBUSSY_CI_PLAN: input.planPath, DEBUSSY_CI_PLAN_SLUG: planSlug(input.planPath), DEBUSSY_CI_RUN_BRANCH: RUN_BRANCH },
    defaults: { run: { shell: 'bash' } },
    jobs,
  };
}
