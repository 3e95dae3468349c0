/** Which phases get jobs and what they wait for; refusals; timeouts; names. Pure, table-driven. */
import { describe, expect, it } from 'vitest';
import { ciRefusal, parallelPair, phaseJobId, phaseJobTimeout, planCiJobs, planSlug, verifyJobTimeout } from '../../src/ci-workflow/index.js';
import { displayText, unsafePathProblem } from '../../src/ci-workflow/workflow-text.js';
import { GRAPHS, planOf } from './plans.js';

describe('planCiJobs', () => {
  it.each([
    { graph: 'chain', jobs: [['1', []], ['2', ['1']], ['3', ['2']]], completed: [], verify: ['1', '2', '3'] },
    { graph: 'diamond', jobs: [['1', []], ['2', ['1']], ['3', ['1']], ['4', ['2', '3']]], completed: [], verify: ['1', '2', '3', '4'] },
    { graph: 'independent', jobs: [['1', []], ['2', []], ['3', []]], completed: [], verify: ['1', '2', '3'] },
    // Phase 1's work is on the run branch: 2 waits for nothing, and the verify job still checks 1.
    { graph: 'a completed phase', jobs: [['2', []], ['3', ['2']]], completed: ['1'], verify: ['1', '2', '3'] },
    { graph: 'dotted ids', jobs: [['A', []], ['2b', ['A']], ['3.1', ['A']], ['6D', ['3.1', '2b']]], completed: [], verify: ['A', '2b', '3.1', '6D'] },
  ] as const)('$graph', ({ graph, jobs, completed, verify }) => {
    const plan = planCiJobs(GRAPHS[graph]);
    expect(plan.phaseJobs.map((job) => [job.phase.id, job.dependsOn])).toEqual(jobs);
    expect(plan.phaseJobs.map((job) => job.needs)).toEqual(jobs.map(([, deps]) => deps.map(phaseJobId)));
    expect(plan.completed.map((phase) => phase.id)).toEqual(completed);
    expect(plan.verifyOrder).toEqual(verify);
  });

  it('job ids: dots become underscores, so 3.1 and 31 stay apart', () => {
    expect(['1', '3.1', '31', '6D'].map(phaseJobId)).toEqual(['phase-1', 'phase-3_1', 'phase-31', 'phase-6D']);
  });
});

describe('parallelPair', () => {
  it.each([
    { graph: planOf('1', '2:1', '3:2'), pair: undefined },
    { graph: planOf('1', '2:1', '3:1', '4:2,3'), pair: ['2', '3'] },
    { graph: planOf('1', '2', '3'), pair: ['1', '2'] },
    // 3 waits for 1 through 2: a chain, though 3 does not name 1.
    { graph: planOf('1', '2:1', '3:2,1'), pair: undefined },
    { graph: planOf('1!', '2', '3:2'), pair: undefined },
  ])('%#: $pair', ({ graph, pair }) => {
    expect(parallelPair(planCiJobs(graph).phaseJobs)).toEqual(pair);
  });
});

describe('ciRefusal', () => {
  const jobs = planCiJobs(planOf('1', '2')).phaseJobs;
  const chain = planCiJobs(planOf('1', '2:1')).phaseJobs;
  const ok = { auto_commit: true, update_plan_status: false };
  it.each([
    { name: 'a plan inside the repository', planPath: 'plans/demo/MASTER_PLAN.md', config: ok, phaseJobs: jobs, refusal: undefined },
    { name: 'a plan outside it', planPath: undefined, config: ok, phaseJobs: jobs, refusal: { kind: 'usage', message: /outside this git repository/ } },
    { name: 'an expression in the path', planPath: 'plans/${{ github.token }}/MASTER_PLAN.md', config: ok, phaseJobs: jobs, refusal: { kind: 'usage', message: /GitHub would evaluate/ } },
    { name: 'a line end in the path', planPath: 'plans/a\nb/MASTER_PLAN.md', config: ok, phaseJobs: jobs, refusal: { kind: 'usage', message: /control character/ } },
    { name: 'auto_commit off', planPath: 'p.md', config: { ...ok, auto_commit: false }, phaseJobs: jobs, refusal: { kind: 'config', message: /auto_commit is off/ } },
    { name: 'update_plan_status with phases at once', planPath: 'p.md', config: { ...ok, update_plan_status: true }, phaseJobs: jobs, refusal: { kind: 'config', message: /phases 1 and 2 run at the same time/ } },
    { name: 'update_plan_status on a chain', planPath: 'p.md', config: { ...ok, update_plan_status: true }, phaseJobs: chain, refusal: undefined },
  ])('$name', ({ planPath, config, phaseJobs, refusal }) => {
    const found = ciRefusal({ planPath, config, phaseJobs });
    if (refusal === undefined) expect(found).toBeUndefined();
    else {
      expect(found?.kind).toBe(refusal.kind);
      expect(found?.message).toMatch(refusal.message);
      expect(found?.hint).not.toBe('');
    }
  });
});

describe('job timeouts', () => {
  const limits = { session_timeout: undefined, gate_timeout: 600_000, max_restarts: 3, max_retries: 2, baseline_gates: true };
  it.each([
    { name: 'no session timeout: the hosted runner limit', limits, gates: 2, minutes: 360 },
    // 3 attempts x 4 sessions x 10 min + 4 gate runs x 1 gate x 1 min + 15 set-up
    { name: 'from the session timeout', limits: { ...limits, session_timeout: 600_000, gate_timeout: 60_000 }, gates: 1, minutes: 15 + 120 + 4 },
    { name: 'without baseline gates', limits: { ...limits, session_timeout: 600_000, gate_timeout: 60_000, baseline_gates: false }, gates: 1, minutes: 15 + 120 + 3 },
    { name: 'never past 360', limits: { ...limits, session_timeout: 3_600_000 }, gates: 1, minutes: 360 },
  ])('phase job: $name', ({ limits: given, gates, minutes }) => {
    expect(phaseJobTimeout(given, gates)).toBe(minutes);
  });
  it('verify job: every gate once, plus set-up', () => {
    expect(verifyJobTimeout(limits, 3)).toBe(15 + 30);
    expect(verifyJobTimeout(limits, 100)).toBe(360);
  });
});

describe('text from plans and paths', () => {
  it.each([
    ['plans/billing/MASTER_PLAN.md', 'billing'],
    ['MASTER_PLAN.md', 'MASTER_PLAN'],
    ['plans/my plan (v2)/MASTER_PLAN.md', 'my-plan-v2'],
    ['plans/.hidden/MASTER_PLAN.md', 'hidden'],
    ['plans/日本/MASTER_PLAN.md', 'plan'],
  ])('planSlug(%j) = %j', (planPath, slug) => {
    expect(planSlug(planPath)).toBe(slug);
  });

  it('displayText breaks up expressions and control characters', () => {
    expect(displayText('Deploy ${{ secrets.TOKEN }}\n\u001b[31mred')).toBe('Deploy $ {{ secrets.TOKEN }} red');
  });

  it('unsafePathProblem passes ordinary paths', () => {
    expect(unsafePathProblem('plans/a b/MASTER_PLAN.md')).toBeUndefined();
  });
});
