/**
 * A world for running a generated workflow locally: a bare repository standing in for GitHub,
 * holding a plan, its config and the workflow `debussy ci github` wrote for it; the scripted model
 * server; an isolated claude config; shims for the built debussy and the claude devDependency.
 * Everything it makes is removed by `dispose()`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { DEBUSSY_BIN, debussy } from '../cli/cli-harness.js';
import { planFiles, type PhaseSpec } from '../e2e/e2e-project.js';
import { CLAUDE_BIN, claudeEnv, git, makeClaudeConfigDir, tempGitRepo, type TempDir } from '../support/claude.js';
import { startScriptedApi, type ScriptedApi, type ScriptedApiOptions } from '../support/scripted-api.js';
import { runWorkflowLocally, type JobResult } from './local-actions-runner.js';

export const WORKFLOW_FILE = '.github/workflows/debussy-e2e.yml';
export const PLAN = 'plans/e2e/MASTER_PLAN.md';

export class CiWorld {
  private runs = 0;

  private constructor(
    readonly root: string,
    readonly remote: string,
    readonly api: ScriptedApi,
    private readonly claudeConfig: TempDir,
    readonly workflow: string,
  ) {}

  static async create(options: { phases: PhaseSpec[]; script: ScriptedApiOptions['script'] }): Promise<CiWorld> {
    const root = mkdtempSync(path.join(tmpdir(), 'debussy-ci-world-'));
    const files = planFiles('E2E Plan', options.phases);
    files['.gitignore'] = '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n';
    // As a user's config would be: claude found on PATH (the runner's install step puts it there).
    files['.debussy/config.yaml'] = YAML.stringify({ claude_args: ['--dangerously-skip-permissions'], model: 'claude-sonnet-4-5', stop_grace: '2s' });
    const seed = await tempGitRepo(files);
    const generated = await debussy(['ci', 'github', PLAN, '--output', WORKFLOW_FILE], { cwd: seed.dir });
    if (generated.code !== 0) throw new Error(`debussy ci github failed: ${generated.stdout}${generated.stderr}`);
    await git(seed.dir, 'add', WORKFLOW_FILE);
    await git(seed.dir, 'commit', '--quiet', '-m', 'the debussy workflow');
    const remote = path.join(root, 'remote.git');
    await git(root, 'init', '--quiet', '--bare', '--initial-branch=main', remote);
    await git(seed.dir, 'push', '--quiet', remote, 'main');
    const workflow = await git(seed.dir, 'show', `HEAD:${WORKFLOW_FILE}`);
    await seed.cleanup();

    const bin = path.join(root, 'bin');
    const shims = { debussy: `exec "${process.execPath}" "${DEBUSSY_BIN}" "$@"`, claude: `exec "${CLAUDE_BIN}" "$@"` };
    mkdirSync(bin);
    for (const [name, body] of Object.entries(shims)) writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    const api = await startScriptedApi({ script: options.script });
    const claudeConfig = await makeClaudeConfigDir();
    return new CiWorld(root, remote, api, claudeConfig, workflow);
  }

  /** One dispatch of the workflow on main: every job, in needs: order. */
  async dispatch(): Promise<JobResult[]> {
    this.runs += 1;
    // The key reaches the agent through the workflow's secret, not through the environment.
    const { ANTHROPIC_API_KEY: key = '', ...env } = claudeEnv(this.api.url, this.claudeConfig.dir);
    return runWorkflowLocally({
      workflow: this.workflow, remote: this.remote, refName: 'main', secrets: { ANTHROPIC_API_KEY: key },
      binDir: path.join(this.root, 'bin'), env, workDir: path.join(this.root, `run-${this.runs}`), runId: String(this.runs),
    });
  }

  /** git in the bare remote. */
  async remoteGit(...args: string[]): Promise<string> {
    return (await git(this.remote, ...args)).trim();
  }

  async branches(): Promise<string[]> {
    return (await this.remoteGit('for-each-ref', '--format=%(refname:short)', 'refs/heads')).split('\n').filter(Boolean);
  }

  async dispose(): Promise<void> {
    await this.api.close();
    await this.claudeConfig.cleanup();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A job's result by id, and one of its steps by name: for assertions with the log in the message. */
export function jobOf(results: JobResult[], id: string): JobResult {
  const job = results.find((result) => result.id === id);
  if (job === undefined) throw new Error(`no job ${id}: ${results.map((result) => result.id).join(', ')}`);
  return job;
}

export function logOf(results: JobResult[]): string {
  return results.map((job) => `== ${job.id}: ${job.result}\n${job.steps.map((step) => `-- ${step.name}: ${step.outcome}\n${step.log}`).join('\n')}`).join('\n');
}
