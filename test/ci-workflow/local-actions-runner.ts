/**
 * Runs a generated GitHub Actions workflow on this machine, so a test knows its commands work, not
 * only its YAML. Jobs run one at a time in `needs:` order, each in a fresh clone of a bare
 * repository standing in for GitHub, its `run:` steps with bash as a runner runs them
 * (`bash --noprofile --norc -eo pipefail`, GITHUB_OUTPUT, RUNNER_TEMP, CI and GITHUB_ACTIONS).
 * What only GitHub has is replaced by the nearest local thing:
 * - actions/checkout: `git clone` of the bare remote, the ref the step names checked out;
 * - actions/setup-node: skipped (this Node runs everything);
 * - the step with `id: install`: skipped; `binDir` (the built debussy, the claude devDependency)
 *   comes first on PATH instead;
 * - actions/upload-artifact and download-artifact: copies through a folder of the workflow run;
 * - `${{ }}` and `if:`: actions-expressions.ts, which throws on what it does not know.
 * Test support, not shipped.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { killTree } from '../support/process-tree.js';
import { condition, interpolate, type ExpressionContext, type ExpressionValue } from './actions-expressions.js';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  run?: string;
}

interface Job {
  needs?: string[] | string;
  if?: string;
  env?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  env?: Record<string, string>;
  on: { workflow_dispatch?: { inputs?: Record<string, { default?: string }> } };
  jobs: Record<string, Job>;
}

export type Outcome = 'success' | 'failure' | 'skipped';

export interface StepResult {
  name: string;
  id: string | undefined;
  outcome: Outcome;
  /** stdout and stderr of a `run:` step, interleaved as written; what the runner did for an action. */
  log: string;
}

export interface JobResult {
  id: string;
  result: Outcome;
  steps: StepResult[];
}

export interface LocalRunOptions {
  workflow: string;
  /** The bare repository that stands in for the one on GitHub. */
  remote: string;
  /** The branch the workflow "runs on" (github.ref_name). */
  refName: string;
  inputs?: Record<string, string>;
  secrets?: Record<string, string>;
  /** Put first on PATH in place of what the install step installs. */
  binDir: string;
  /** The environment every step starts from. */
  env: Record<string, string>;
  /** A folder for this run's job workspaces and artifacts. */
  workDir: string;
  runId?: string;
  stepTimeoutMs?: number;
}

/** Job ids in an order where every job comes after those it needs (declaration order otherwise). */
export function jobOrder(jobs: Record<string, Job>): string[] {
  const order: string[] = [];
  const remaining = Object.keys(jobs);
  while (remaining.length > 0) {
    const ready = remaining.findIndex((id) => needsOf(jobs[id] as Job).every((need) => order.includes(need)));
    if (ready < 0) throw new Error(`jobs that need each other or an unknown job: ${remaining.join(', ')}`);
    order.push(...remaining.splice(ready, 1));
  }
  return order;
}

function needsOf(job: Job): string[] {
  return job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
}

function stringMap(values: Record<string, unknown> | undefined, context: ExpressionContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) out[key] = interpolate(String(value), context);
  return out;
}

function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const value: string[] = [];
      for (index++; index < lines.length && lines[index] !== heredoc[2]; index++) value.push(lines[index] ?? '');
      outputs[heredoc[1] as string] = value.join('\n');
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

function runBash(script: string, options: { cwd: string; env: Record<string, string>; timeoutMs: number; file: string }): Promise<{ code: number | null; log: string }> {
  writeFileSync(options.file, script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', options.file], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const timer = setTimeout(() => {
      log += `\n[local runner: step timed out after ${options.timeoutMs} ms]\n`;
      if (child.pid !== undefined) void killTree(child.pid);
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}

/** Files under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) return [''];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) => statSync(path.join(dir, entry)).isFile());
}

function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

export async function runWorkflowLocally(options: LocalRunOptions): Promise<JobResult[]> {
  const workflow = YAML.parse(options.workflow) as Workflow;
  const artifacts = path.join(options.workDir, 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  const inputs: Record<string, ExpressionValue> = {};
  for (const [name, input] of Object.entries(workflow.on.workflow_dispatch?.inputs ?? {})) inputs[name] = options.inputs?.[name] ?? input.default ?? '';
  const runId = options.runId ?? '1';
  const github = { ref_name: options.refName, run_id: runId, token: 'local-token', server_url: 'https://github.com', repository: 'local/repo' };
  const baseContexts = { github, inputs, secrets: { ...options.secrets } };
  const workflowEnv = stringMap(workflow.env, { contexts: baseContexts, status: { success: true, failure: false } });
  const results: JobResult[] = [];
  const needsContext: Record<string, ExpressionValue> = {};

  for (const jobId of jobOrder(workflow.jobs)) {
    const job = workflow.jobs[jobId] as Job;
    const needs = needsOf(job).map((need) => results.find((result) => result.id === need) as JobResult);
    const jobStatus = { success: needs.every((need) => need.result === 'success'), failure: needs.some((need) => need.result === 'failure') };
    const jobDir = path.join(options.workDir, 'jobs', jobId);
    const temp = path.join(jobDir, 'temp');
    const workspace = path.join(jobDir, 'work');
    mkdirSync(temp, { recursive: true });
    const contexts = { ...baseContexts, needs: needsContext, runner: { temp }, env: workflowEnv };
    if (!condition(job.if, { contexts, status: jobStatus })) {
      results.push({ id: jobId, result: 'skipped', steps: [] });
      needsContext[jobId] = { result: 'skipped', outputs: {} };
      continue;
    }
    const jobEnv = { ...workflowEnv, ...stringMap(job.env, { contexts, status: jobStatus }) };
    const steps: StepResult[] = [];
    const stepsContext: Record<string, ExpressionValue> = {};
    let failed = false;
    for (const [index, step] of job.steps.entries()) {
      const context: ExpressionContext = { contexts: { ...contexts, env: jobEnv, steps: stepsContext }, status: { success: !failed, failure: failed } };
      const name = step.name ?? step.uses ?? `step ${index + 1}`;
      const record = (outcome: Outcome, log: string, outputs: Record<string, string> = {}): void => {
        steps.push({ name, id: step.id, outcome, log });
        if (step.id !== undefined) stepsContext[step.id] = { outcome, conclusion: outcome, outputs };
        if (outcome === 'failure') failed = true;
      };
      if (!condition(step.if, context)) {
        record('skipped', '');
        continue;
      }
      const stepEnv = { ...jobEnv, ...stringMap(step.env, context) };
      const inputsOf = stringMap(step.with, { ...context, contexts: { ...context.contexts, env: stepEnv } });
      if (step.id === 'install') {
        record('success', `[local runner: replaced by ${options.binDir} on PATH]`);
      } else if (step.uses?.startsWith('actions/checkout@')) {
        const ref = inputsOf.ref ?? options.refName;
        const clone = await runBash(`git clone --quiet --no-hardlinks "$REMOTE" "$WORKSPACE"\ncd "$WORKSPACE"\ngit checkout --quiet -B "$REF" "refs/remotes/origin/$REF"\n`, {
          cwd: jobDir, env: { ...options.env, REMOTE: options.remote, WORKSPACE: workspace, REF: ref }, timeoutMs: 60_000, file: path.join(temp, 'checkout.sh'),
        });
        record(clone.code === 0 ? 'success' : 'failure', clone.log);
      } else if (step.uses?.startsWith('actions/setup-node@')) {
        record('success', '[local runner: skipped, this Node runs everything]');
      } else if (step.uses?.startsWith('actions/upload-artifact@')) {
        const source = path.resolve(workspace, inputsOf.path ?? '');
        const target = path.join(artifacts, inputsOf.name ?? 'artifact');
        if (existsSync(target) && inputsOf.overwrite === 'true') rmSync(target, { recursive: true, force: true });
        if (existsSync(target)) record('failure', `an artifact named ${inputsOf.name ?? ''} exists already in this run`);
        else if (filesUnder(source).length === 0) record(inputsOf['if-no-files-found'] === 'error' ? 'failure' : 'success', `no files in ${source}`);
        else {
          cpSync(source, statSync(source).isDirectory() ? target : path.join(target, path.basename(source)), { recursive: true });
          record('success', `uploaded ${filesUnder(target).join(', ')} as ${inputsOf.name ?? ''}`);
        }
      } else if (step.uses?.startsWith('actions/download-artifact@')) {
        const into = path.resolve(workspace, inputsOf.path ?? '.');
        const matches = inputsOf.name !== undefined ? [inputsOf.name] : readdirSync(artifacts).filter((artifact) => globToRegExp(inputsOf.pattern ?? '*').test(artifact));
        const missing = matches.filter((artifact) => !existsSync(path.join(artifacts, artifact)));
        if (missing.length > 0) record('failure', `Artifact '${missing.join(', ')}' not found`);
        else {
          const separate = inputsOf.name === undefined && inputsOf['merge-multiple'] !== 'true';
          for (const artifact of matches) cpSync(path.join(artifacts, artifact), separate ? path.join(into, artifact) : into, { recursive: true });
          record('success', `downloaded ${matches.length} artifact(s): ${matches.join(', ')}`);
        }
      } else if (step.uses !== undefined) {
        throw new Error(`the local runner does not know the action ${step.uses}`);
      } else if (step.run !== undefined) {
        const outputFile = path.join(temp, `output-${index}`);
        writeFileSync(outputFile, '');
        const result = await runBash(step.run, {
          cwd: workspace,
          env: {
            ...options.env, ...stepEnv,
            PATH: `${options.binDir}${path.delimiter}${options.env.PATH ?? ''}`,
            CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: path.join(temp, 'step-summary.md'),
            GITHUB_RUN_ID: runId, GITHUB_REF_NAME: options.refName, GITHUB_SERVER_URL: github.server_url, GITHUB_REPOSITORY: github.repository,
            GITHUB_WORKSPACE: workspace, RUNNER_TEMP: temp,
          },
          timeoutMs: options.stepTimeoutMs ?? 120_000,
          file: path.join(temp, `step-${index}.sh`),
        });
        record(result.code === 0 ? 'success' : 'failure', result.log, readOutputs(outputFile));
      } else {
        throw new Error(`step ${name} of ${jobId} has neither uses nor run`);
      }
    }
    results.push({ id: jobId, result: failed ? 'failure' : 'success', steps });
    needsContext[jobId] = { result: failed ? 'failure' : 'success', outputs: {} };
  }
  return results;
}
