export { planCiJobs, parallelPair, phaseJobId, type CiJobPlan, type PhaseJob } from './ci-jobs.js';
export {
  buildGithubWorkflow, ACTIONS, PUSH_JOB, VERIFY_JOB,
  type CiWorkflowInput, type CiWorkflowOptions, type GithubWorkflow, type WorkflowJob, type WorkflowStep,
} from './github-workflow.js';
export { renderWorkflow, type WorkflowHeader } from './render-workflow.js';
export { ciRefusal, type CiRefusal } from './refusals.js';
export { HOSTED_RUNNER_LIMIT_MINUTES, phaseJobTimeout, verifyJobTimeout, type TimeoutLimits } from './job-timeouts.js';
export { planSlug } from './workflow-text.js';
export { AGENT_SECRETS, type AgentSecret } from './agent-secrets.js';
