/** The queue's pure decisions: a job and a result read from the queue (untrusted), what a job's result means to the run, and what to enqueue next. */
import { describe, expect, it } from 'vitest';
import { readyPhases } from '../../src/orchestrator/parallel/ready-phases.js';
import { queueConnection, reconnectDelayMs } from '../../src/queue/connection.js';
import { phaseResultOfJob } from '../../src/queue/job-outcome.js';
import { parsePhaseJob, parsePhaseJobResult, phaseJobId, type PhaseJobResult } from '../../src/queue/phase-job.js';

const SHA = 'a'.repeat(40);
const JOB = { v: 1, remote: 'git@example.com:team/app.git', runBranch: 'main', baseSha: SHA, runId: '20261127-101500-ab12', planPath: 'plans/x/MASTER_PLAN.md', phaseId: '2', phaseBranch: 'debussy/20261127-101500-ab12/2' };

describe('parsePhaseJob', () => {
  it.each([
    ['a valid job', {}, undefined],
    ['a path as the remote', { remote: '/srv/git/app.git' }, undefined],
    ['an https remote without credentials', { remote: 'https://example.com/team/app.git' }, undefined],
    ['another version', { v: 2 }, /version is 2/],
    ['a remote with a password', { remote: 'https://user:hunter2@example.com/app.git' }, /holds a password/],
    ['a remote that is an option', { remote: '--upload-pack=touch x' }, /read as an option/],
    ['the ext:: transport', { remote: 'ext::sh -c touch% x' }, /ext::/],
    ['a branch that is an option', { runBranch: '-f' }, /not a branch name/],
    ['a branch with ..', { phaseBranch: 'debussy/../x' }, /not a branch name/],
    ['a branch with a space', { runBranch: 'my branch' }, /not a branch name/],
    ['a plan outside the repository', { planPath: '../elsewhere/MASTER_PLAN.md' }, /inside the repository/],
    ['an absolute plan path', { planPath: '/etc/passwd' }, /inside the repository/],
    ['a base that is no commit id', { baseSha: 'HEAD' }, /not a commit id/],
    ['a control character', { phaseId: '2\u001b[31m' }, /control character/],
    ['no phase id', { phaseId: undefined }, /phaseId is missing/],
  ])('%s', (_name, change, problem) => {
    const parsed = parsePhaseJob({ ...JOB, ...change });
    if (problem === undefined) expect(parsed).toEqual({ ok: true, value: { ...JOB, ...change } });
    else expect(parsed.ok ? 'accepted' : parsed.problem).toMatch(problem);
  });

  it('refuses what is not an object', () => {
    expect(parsePhaseJob('phase 2')).toEqual({ ok: false, problem: 'the job holds no object' });
    expect(parsePhaseJob(null).ok).toBe(false);
  });
});

const RESULT: PhaseJobResult = { status: 'completed', exitCode: 0, commitSha: SHA, costUsd: 0.25, worker: 'host:42' };

describe('parsePhaseJobResult', () => {
  it.each([
    ['a valid result', {}, undefined],
    ['with a reason', { status: 'failed', exitCode: 1, reason: 'gate tests failed' }, undefined],
    ['an unknown status', { status: 'done' }, /not a run's status/],
    ['an exit code debussy has not', { exitCode: 77 }, /not one of debussy's exit codes/],
    ['a negative cost', { costUsd: -1 }, /not an amount/],
    ['a cost that is no number', { costUsd: '1' }, /not an amount/],
    ['no commit', { commitSha: undefined }, /commitSha is missing/],
  ])('%s', (_name, change, problem) => {
    const parsed = parsePhaseJobResult({ ...RESULT, ...change });
    if (problem === undefined) expect(parsed).toEqual({ ok: true, value: { ...RESULT, ...change } });
    else expect(parsed.ok ? 'accepted' : parsed.problem).toMatch(problem);
  });
});

describe('phaseResultOfJob', () => {
  it.each([
    [{ status: 'completed', exitCode: 0 }, { status: 'completed' }],
    [{ status: 'failed', exitCode: 1, reason: 'gate tests failed' }, { status: 'failed', reason: 'gate tests failed (on worker host:42)' }],
    [{ status: 'blocked', exitCode: 5, reason: 'needs a key' }, { status: 'blocked', reason: 'needs a key (on worker host:42)' }],
    [{ status: 'aborted', exitCode: 4 }, { status: 'aborted', exitKind: 'circuitOpen' }],
    [{ status: 'aborted', exitCode: 0 }, { status: 'aborted', exitKind: 'failed' }],
    [{ status: 'interrupted', exitCode: 9 }, { status: 'paused', exitKind: 'budget' }],
    [{ status: 'interrupted', exitCode: 10 }, { status: 'paused', exitKind: 'usageLimit' }],
    [{ status: 'interrupted', exitCode: 130 }, { status: 'interrupted' }],
  ] as const)('%j -> %j', (change, expected) => {
    expect(phaseResultOfJob({ ...RESULT, ...change })).toMatchObject(expected);
  });
});

describe('what to enqueue next (the supervisor\'s readyPhases, every slot free: the workers are the slots)', () => {
  const diamond = [{ id: '1', dependsOn: [] }, { id: '2', dependsOn: [] }, { id: '3', dependsOn: ['1', '2'] }, { id: '4', dependsOn: ['3'] }];
  it.each([
    [[], [], ['1', '2']],
    [['1'], ['1', '2'], []],
    [['1', '2'], ['1', '2'], ['3']],
    [['1', '2', '3'], ['1', '2', '3'], ['4']],
  ])('merged %j, started %j: enqueue %j', (merged, started, expected) => {
    expect(readyPhases({ phases: diamond, merged: new Set(merged), started: new Set(started), givenUp: new Set(), running: started.length - merged.length, maxParallel: diamond.length })).toEqual(expected);
  });

  it('one job per run and phase (its branch): the same id each time, no \':\' in it, and no two phases share one', () => {
    expect(phaseJobId('debussy/r1/2')).toBe(phaseJobId('debussy/r1/2'));
    expect(phaseJobId('debussy/r1/a:b')).not.toContain(':');
    expect(phaseJobId('debussy/r1/2')).not.toBe(phaseJobId('debussy/r2/2'));
  });
});

describe('queueConnection', () => {
  it('hides a password in what it shows, and retries for ever', () => {
    const connection = queueConnection('redis://:s3cret@queue.internal:6379/2');
    expect(connection.shown).toBe('redis://:***@queue.internal:6379/2');
    expect(connection.options).toMatchObject({ url: 'redis://:s3cret@queue.internal:6379/2', maxRetriesPerRequest: null });
    expect(queueConnection('unix:///run/redis.sock').options).toMatchObject({ path: '/run/redis.sock' });
    expect([1, 2, 5, 100].map(reconnectDelayMs)).toEqual([100, 200, 1600, 2000]);
  });

  it.each([['not a url', /is not a URL/], ['http://queue:6379', /not a Redis URL/]])('refuses %s', (url, problem) => {
    expect(() => queueConnection(url)).toThrow(problem);
  });
});

describe('the submitter\'s journal', () => {
  it('counts the spend a worker reports with its job in the phase and the run (status, max_cost)', async () => {
    const { foldRun } = await import('../../src/state/fold.js');
    const { runSpend } = await import('../../src/cost/index.js');
    const base = { v: 1, ts: '2026-11-27T10:00:00.000Z', pid: 1 };
    const state = foldRun([
      { ...base, type: 'run_started', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} },
      { ...base, type: 'phase_job', phaseId: '1', jobId: 'r1.1', stage: 'queued' },
      { ...base, type: 'phase_job', phaseId: '1', jobId: 'r1.1', stage: 'ended', worker: 'h:1', status: 'completed', commitSha: SHA, costUsd: 0.5 },
      { ...base, type: 'phase_job', phaseId: '2', jobId: 'r1.2', stage: 'ended', worker: 'h:2', status: 'failed', commitSha: SHA, costUsd: 0.25 },
    ]);
    expect(state?.phases['1']?.costUsd).toBe(0.5);
    expect(state === undefined ? undefined : runSpend(state).usd).toBe(0.75);
  });
});
