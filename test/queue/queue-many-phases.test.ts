/**
 * `debussy run --queue` of more phases than node's 10 listeners to a signal, through the real
 * claude against the scripted server, a real Redis, a bare repository as the remote and two
 * `debussy worker` processes. Bench figure 9 (24 phases) found the run's stderr saying
 * "MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners
 * added to [AbortSignal]": each job's wait left a listener on the run's stop signal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf, type PhaseSpec } from '../e2e/e2e-project.js';
import { assistantTurns, bash, done } from '../e2e/session-script.js';
import { firstUserText } from '../support/scripted-api.js';
import { git } from '../support/temp-git-repo.js';
import { killTree } from '../support/process-tree.js';
import { startQueueWorker, type QueueWorkerProcess } from '../support/queue-worker.js';
import { redisServerPath, startRedisServer, type RedisServer } from '../support/redis-server.js';

const HAS_REDIS = redisServerPath() !== undefined;

let redis: RedisServer | undefined;
let project: E2EProject | undefined;
let scratch: string | undefined;
const workers: QueueWorkerProcess[] = [];

beforeAll(async () => {
  if (HAS_REDIS) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await killTree(worker.rootPid, 'SIGKILL');
  await project?.dispose();
  project = undefined;
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe.skipIf(!HAS_REDIS)('debussy run --queue of 12 phases', () => {
  it('runs them all on two workers and says nothing of listeners on its stderr', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    const phases: PhaseSpec[] = ids.map((id) => ({ id, title: `Part ${id}`, gates: [{ name: 'out', command: `test -f out-${id}.txt` }] }));
    project = await E2EProject.create({
      phases,
      script: (req) => {
        const id = /phase (\w+)/.exec(firstUserText(req))?.[1] ?? '?';
        return [bash(`echo ${id} > out-${id}.txt && debussy done --phase ${id}`), done()][assistantTurns(req)] ?? done();
      },
    });
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-queue-'));
    const bare = path.join(scratch, 'remote.git');
    await git(scratch, 'clone', '--quiet', '--bare', project.dir, bare);
    await project.git('remote', 'add', 'origin', bare);
    const env = project.env({ GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'worker@debussy.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'worker@debussy.invalid' });
    for (const name of ['a', 'b']) workers.push(await startQueueWorker({ dir: path.join(scratch, name), url: redis!.url, env, cwd: scratch }));

    const result = await project.run(['run', project.planArg, '--queue', redis!.url]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/MaxListenersExceeded|memory leak/);
    const ended = eventsOf(await project.journal(), 'phase_job').filter((e) => e.stage === 'ended');
    expect(ended.map((e) => e.phaseId).sort((a, b) => Number(a) - Number(b))).toEqual(ids);
    for (const id of ids) expect((await git(bare, 'show', `main:out-${id}.txt`)).trim()).toBe(id);

    for (const worker of workers) process.kill(worker.pid, 'SIGTERM');
    for (const worker of workers) expect(await worker.done, worker.output()).toEqual({ code: 0, signal: null });
  }, 180_000);
});
