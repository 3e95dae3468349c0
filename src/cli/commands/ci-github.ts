/**
 * `debussy ci github PLAN [--output FILE]`: a GitHub Actions workflow that runs the plan's phases
 * on CI runners, each in its own job as soon as its dependencies are done (src/ci-workflow/).
 * Reads the plan and the config here; the workflow itself is a pure function of them.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildGithubWorkflow, ciRefusal, planCiJobs, renderWorkflow, type AgentSecret } from '../../ci-workflow/index.js';
import { loadProjectConfig } from '../../config/index.js';
import { TESTED_CLAUDE_VERSION } from '../../doctor/tested-claude-version.js';
import { ConfigError, UsageError } from '../../errors/index.js';
import { gitStdout } from '../../git/run-git.js';
import { packageFile } from '../../install/package-files.js';
import { loadAuditedPlan } from '../../orchestrator/preflight.js';
import { findProjectRoot } from '../../state/index.js';
import { inertLine, inertText } from '../../text/inert-text.js';
import { readPackageVersion } from '../package-version.js';

interface CiGithubOptions {
  output?: string;
  debussyPackage?: string;
  claudeCodeVersion?: string;
  nodeVersion: string;
  secret: AgentSecret;
  setup?: string[];
}

/** Where this debussy comes from (package.json `repository`): what the jobs install unless told otherwise. */
function ownRepository(): string {
  const raw: unknown = JSON.parse(readFileSync(packageFile('package.json'), 'utf8'));
  const url = (raw as { repository?: { url?: unknown } }).repository?.url;
  return typeof url === 'string' ? url : 'git+https://github.com/debussy-cli/debussy.git';
}

/** The plan's folder has changes the runners would not see: they check out what is pushed. */
async function uncommittedPlanFiles(root: string, planDir: string): Promise<string[]> {
  try {
    return (await gitStdout(root, ['status', '--porcelain', '--', planDir])).split('\n').filter((line) => line.trim() !== '');
  } catch {
    return [];
  }
}

export default async function ciGithubCommand(planArg: string, options: CiGithubOptions): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const resolved = await loadProjectConfig(root);
  for (const warning of resolved.warnings) process.stderr.write(`debussy: warning: ${inertText(warning)}\n`);
  const { plan, warnings } = await loadAuditedPlan(path.resolve(planArg), resolved.config, process.cwd());
  for (const warning of warnings) process.stderr.write(`debussy: ${warning}\n`);
  const relative = path.relative(root, plan.path);
  const planPath = relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative.split(path.sep).join('/');
  const jobs = planCiJobs(plan);
  const refusal = ciRefusal({ planPath, config: resolved.config, phaseJobs: jobs.phaseJobs });
  if (refusal !== undefined) throw refusal.kind === 'usage' ? new UsageError(refusal.message, refusal.hint) : new ConfigError(refusal.message, refusal.hint);
  const inRepository = planPath as string;

  const workflow = buildGithubWorkflow({
    plan,
    planPath: inRepository,
    limits: resolved.config,
    options: {
      debussyPackage: options.debussyPackage ?? ownRepository(),
      claudeCodeVersion: options.claudeCodeVersion ?? TESTED_CLAUDE_VERSION,
      nodeVersion: options.nodeVersion,
      secret: options.secret,
      setup: options.setup ?? [],
    },
  });
  const text = renderWorkflow(workflow, { planPath: inRepository, debussyVersion: readPackageVersion(), secret: options.secret });
  const dirty = await uncommittedPlanFiles(root, path.dirname(plan.path));
  if (dirty.length > 0) process.stderr.write(`debussy: warning: ${inertLine(path.dirname(inRepository))} has uncommitted changes: the jobs run what is pushed to the run branch\n`);

  if (options.output === undefined) {
    process.stdout.write(text);
    return 0;
  }
  const output = path.resolve(options.output);
  await mkdir(path.dirname(output), { recursive: true });
  await writeFile(output, text);
  const complete = jobs.completed.length === 0 ? '' : ` (phase(s) ${jobs.completed.map((phase) => phase.id).join(', ')} complete already: no job)`;
  process.stdout.write(
    `debussy: wrote ${path.relative(process.cwd(), output) || output}: ${jobs.phaseJobs.length} phase job(s)${complete}, then verify and push.\n` +
      `  Commit it, add the repository secret ${options.secret}, and start it from the Actions tab or with \`gh workflow run ${path.basename(output)}\`.\n`,
  );
  return 0;
}
