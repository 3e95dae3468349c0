/**
 * The submitter waiting for more jobs at once than node's 10 listeners to one signal or emitter,
 * through real BullMQ and a real Redis of the test's own. Bench figure 9 (24 phases under --queue)
 * found the run's stderr saying "MaxListenersExceededWarning: Possible EventTarget memory leak
 * detected. 11 abort listeners added to [AbortSignal]": each job's wait left a listener on the
 * run's stop signal, which the supervisor shares with every phase; and the same of the submitter's
 * BullMQ queue, whose wait for a job listens to its 'closing' once per job. Node prints such a
 * warning on stderr from process 'warning', where this test listens. The supervisor here is the
 * test (12 phases' runAt at once, as under --queue every ready phase is a job at once), and the
 * worker a BullMQ Worker of its own that completes each job: the real workers are queue-run's.
 */
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker, type Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PhaseContext, PhaseResult } from '../../src/orchestrator/phase-context.js';
import type { Phase } from '../../src/plan/types.js';
import { PHASE_QUEUE, queueConnection } from '../../src/queue/connection.js';
import type { PhaseJob, PhaseJobResult } from '../../src/queue/phase-job.js';
import { QueueSubmitter } from '../../src/queue/submitter.js';
import type { JournalEvent } from '../../src/state/index.js';
import { waitFor } from '../e2e/processes.js';
import { redisServerPath, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { git, tempGitRepo, type TempDir } from '../support/temp-git-repo.js';

const HAS_REDIS = redisServerPath() !== undefined;
const RUN_ID = '20261127-100000-ab12';

let redis: RedisServer | undefined;
let repo: TempDir | undefined;
let scratch: string | undefined;
const closing: (() => Promise<unknown>)[] = [];
const warnings: string[] = [];
const onWarning = (warning: Error): void => {
  if (warning.name === 'MaxListenersExceededWarning' || /memory leak/.test(warning.message)) warnings.push(`${warning.name}: ${warning.message}`);
};

beforeAll(async () => {
  if (HAS_REDIS) redis = await startRedisServer();
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await redis?.stop();
});
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  await repo?.cleanup();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  repo = undefined;
  scratch = undefined;
});

describe.skipIf(!HAS_REDIS)('the submitter waiting for 12 jobs at once', () => {
  it('keeps one listener on the run\'s stop signal, warns of no listener leak, and takes each job\'s result', async () => {
    repo = await tempGitRepo();
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-submitter-'));
    const remote = path.join(scratch, 'remote.git');
    await git(scratch, 'clone', '--quiet', '--bare', repo.dir, remote);
    await git(repo.dir, 'remote', 'add', 'origin', remote);
    const submitter = await QueueSubmitter.open(repo.dir, queueConnection(redis!.url), 'origin', process.env);
    closing.push(() => submitter.close());
    // The submitter's own queue: BullMQ's wait for a job adds a listener to its 'closing' (how the test knows all 12 wait).
    const queue = Reflect.get(submitter, 'queue') as Queue;
    const closingBefore = queue.listenerCount('closing');

    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    const branchOf = (id: string) => `debussy/${RUN_ID}/${id}`;
    // Each phase's branch as its worker leaves it on the remote (here at the run's base: nothing to merge in).
    const base = (await git(repo.dir, 'rev-parse', 'HEAD')).trim();
    await git(repo.dir, 'push', '--quiet', 'origin', ...ids.map((id) => `${base}:refs/heads/${branchOf(id)}`));

    const stop = new AbortController();
    const recorded: JournalEvent[] = [];
    // What runAt reads of the run's context (the rest is the phases' here, never the submitter's).
    const ctx = {
      root: repo.dir, plan: { path: path.join(repo.dir, 'plans/e2e/MASTER_PLAN.md') }, runId: RUN_ID,
      recorder: { record: (event: JournalEvent) => recorded.push(event) }, interrupt: stop.signal,
    } as unknown as PhaseContext;
    const results: Promise<PhaseResult>[] = ids.map((id) => submitter.runAt(ctx, { id, title: `Part ${id}` } as Phase, { restarts: 0, retries: 0, sessions: 0 }, { branch: branchOf(id), worktree: repo!.dir }));

    await waitFor('the 12 jobs to be waited for', () => queue.listenerCount('closing') - closingBefore === ids.length, 30_000);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    // A warning is emitted on the next tick of the listener that crossed the limit.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);

    // The worker: every job completed, at the commit its branch holds.
    const worker = new Worker(PHASE_QUEUE, (job): Promise<PhaseJobResult> => Promise.resolve({ status: 'completed', exitCode: 0, costUsd: 0, worker: 'test:1', commitSha: (job.data as PhaseJob).baseSha }), { connection: queueConnection(redis!.url).options, concurrency: ids.length });
    closing.push(() => worker.close());
    expect(await Promise.all(results)).toEqual(ids.map(() => ({ status: 'completed' })));
    const ended = recorded.filter((e): e is Extract<JournalEvent, { type: 'phase_ended' }> => e.type === 'phase_ended');
    expect(ended.map((e) => [e.phaseId, e.status]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(ids.map((id) => [id, 'completed']));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });
});
