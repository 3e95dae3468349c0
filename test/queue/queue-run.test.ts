/**
 * Issue 25 acceptance (across machines: --queue), through the real claude against the scripted
 * server, a real Redis of the test's own, real git with a bare repository as the remote, and
 * `debussy worker` processes in separate directories standing in for machines: phases 1 and 2 on
 * different workers at the same time, phase 3 after both, the run's branch on the remote holding
 * all three; a submitter stopped by Ctrl-C leaving its jobs to the workers, the next run taking up
 * their results; a worker killed mid-phase is replaced and the phase goes on from its pushed
 * checkpoint; a worker stopped by SIGTERM mid-phase pushes its work, gives its job back and leaves
 * nothing running; Redis going away mid-run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { E2EProject, eventsOf, type PhaseSpec } from '../e2e/e2e-project.js';
import { livePids, waitFor } from '../e2e/processes.js';
import { assistantTurns, bash, done, sessionKind, write } from '../e2e/session-script.js';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { git } from '../support/temp-git-repo.js';
import { descendantsOf, isAlive, killTree } from '../support/process-tree.js';
import { redisServerPath, startRedisServer, type RedisServer } from '../support/redis-server.js';

const HAS_REDIS = redisServerPath() !== undefined;
if (!HAS_REDIS) console.warn('warning: redis-server is not installed; the queue tests are skipped (.ci/run installs it)');

/** A key of the Anthropic format the redactor knows: recorded as progress, it must reach no commit and no prompt. */
const SECRET = 'sk-ant-api03-Qz7vW2pLx9TbN4mK8rYc';
const CROSSING_USAGE = { input_tokens: 165_000 }; // 82.5% of sonnet's 200,000-token window: a restart, with a checkpoint commit

let redis: RedisServer | undefined;
let project: E2EProject | undefined;
let scratch: string | undefined;
const workers: Worker[] = [];

beforeAll(async () => {
  if (HAS_REDIS) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await killTree(worker.child.pid ?? 0, 'SIGKILL');
  await project?.dispose();
  project = undefined;
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

interface Worker {
  dir: string;
  child: ChildProcess;
  output: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A `debussy worker` in a directory of its own, once it waits for jobs. */
async function startWorker(name: string, queue = redis, lockMs = 2000): Promise<Worker> {
  if (project === undefined || queue === undefined || scratch === undefined) throw new Error('no project');
  const dir = path.join(scratch, name);
  const env = project.env({
    DEBUSSY_QUEUE_LOCK_MS: String(lockMs), DEBUSSY_QUEUE_PUSH_MS: '300',
    GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'worker@debussy.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'worker@debussy.invalid',
  });
  const child = spawn(process.execPath, [DEBUSSY_BIN, 'worker', '--queue', queue.url, '--dir', dir], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const worker: Worker = { dir, child, output: () => output, done: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal }))) };
  workers.push(worker);
  await waitFor(`worker ${name} to wait for jobs`, () => output.includes('waits for phase jobs'), 20_000);
  return worker;
}

/** The project with a bare repository as its origin, and a scratch directory for the workers' checkouts. */
async function queueProject(phases: PhaseSpec[], script: (req: RecordedRequest) => ScriptedTurn): Promise<{ bare: string }> {
  project = await E2EProject.create({ phases, script });
  scratch = mkdtempSync(path.join(tmpdir(), 'debussy-queue-'));
  const bare = path.join(scratch, 'remote.git');
  await git(scratch, 'clone', '--quiet', '--bare', project.dir, bare);
  await project.git('remote', 'add', 'origin', bare);
  return { bare };
}

function phaseOf(req: RecordedRequest): string {
  return /phase (\w+)/.exec(firstUserText(req))?.[1] ?? '?';
}

/** [first, last] arrival of a phase's main requests. */
function span(requests: RecordedRequest[], phaseId: string): [number, number] {
  const times = requests.filter((r) => phaseOf(r) === phaseId).map((r) => r.receivedAt);
  return [Math.min(...times), Math.max(...times)];
}

/** Which worker's checkout a session works in (claude's prompt names its working directory). */
function ranIn(req: RecordedRequest, worker: Worker | undefined): boolean {
  return worker !== undefined && JSON.stringify(req.body).includes(worker.dir);
}

/**
 * Whether the scripted server was asked for a phase's turn (the one whose answer is the sleep
 * waited for): checked in this process before each `ps` of livePids, which then polls only the
 * moment between that answer and the sleep's start, not the whole run up to it.
 */
function asked(which: (req: RecordedRequest) => boolean): boolean {
  return project?.api.mainRequests().some(which) ?? false;
}

const DIAMOND: PhaseSpec[] = [
  { id: '1', title: 'Left', gates: [{ name: 'left', command: 'test -f left.txt' }] },
  { id: '2', title: 'Right', gates: [{ name: 'right', command: 'test -f right.txt' }] },
  { id: '3', title: 'Both', dependsOn: ['1', '2'], gates: [{ name: 'both', command: 'test -f both.txt' }] },
];

describe.skipIf(!HAS_REDIS)('debussy run --queue with debussy worker processes', () => {
  it('runs phases 1 and 2 on two workers at once; a submitter stopped by Ctrl-C leaves both jobs to their workers, and debussy run --queue again takes up their results (no second session), runs phase 3 after both and pushes the merged run branch; workers stop on SIGTERM', async () => {
    const turns: Record<string, ScriptedTurn[]> = {
      '1': [bash('(sleep 8.1); echo left > left.txt && debussy done --phase 1'), done()],
      '2': [bash('(sleep 8.2); echo right > right.txt && debussy done --phase 2'), done()],
      '3': [bash('test -f left.txt && test -f right.txt && echo both > both.txt'), bash('debussy done --phase 3'), done()],
    };
    const { bare } = await queueProject(DIAMOND, (req) => turns[phaseOf(req)]?.[assistantTurns(req)] ?? done());
    const [a, b] = [await startWorker('a'), await startWorker('b')];
    const first = project!.start(['run', project!.planArg, '--queue', redis!.url]);
    await waitFor('phases 1 and 2 to sleep on the workers at once', () => ['1', '2'].every((id) => asked((r) => phaseOf(r) === id)) && livePids(/^sleep 8\.1$/).length > 0 && livePids(/^sleep 8\.2$/).length > 0, 45_000);
    first.child.kill('SIGINT');
    const stopped = await first.done;
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(130);
    await waitFor('the workers to finish both jobs', () => /phase 1 completed/.test(a.output() + b.output()) && /phase 2 completed/.test(a.output() + b.output()), 45_000);
    const result = await project!.run(['run', project!.planArg, '--queue', redis!.url]);
    expect(result.code, result.stdout + result.stderr + a.output() + b.output()).toBe(0);

    const main = project!.api.mainRequests();
    // Each job's result taken up as it was: one session each for phases 1 and 2.
    for (const id of ['1', '2']) expect(main.filter((r) => phaseOf(r) === id && assistantTurns(r) === 0), `sessions of phase ${id}`).toHaveLength(1);
    const [start1, end1] = span(main, '1');
    const [start2, end2] = span(main, '2');
    expect(start2).toBeLessThan(end1);
    expect(start1).toBeLessThan(end2);
    expect(span(main, '3')[0]).toBeGreaterThan(Math.max(end1, end2));
    const events = await project!.journal();
    const ended = eventsOf(events, 'phase_job').filter((e) => e.stage === 'ended');
    expect(ended.map((e) => e.phaseId).sort()).toEqual(['1', '2', '3']);
    const workerOf = (id: string) => ended.find((e) => e.phaseId === id)?.worker;
    expect(workerOf('1')).not.toBe(workerOf('2'));
    const pids = [workerOf('1'), workerOf('2')].map((worker) => Number(worker?.split(':').pop())).sort();
    expect(pids).toEqual([a.child.pid, b.child.pid].sort());
    // The run's branch on the remote holds the three phases, merged one at a time.
    for (const file of ['left.txt', 'right.txt', 'both.txt']) expect((await git(bare, 'show', `main:${file}`)).trim()).not.toBe('');
    expect((await git(bare, 'log', '--merges', '--format=%s', 'main')).trim().split('\n')).toHaveLength(3);
    expect((await project!.git('status', '--porcelain')).trim()).toBe('');
    const status = JSON.parse((await project!.run(['status', '--json'])).stdout) as { run: { phases: Record<string, { status: string }> } };
    expect(Object.values(status.run.phases).map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);

    for (const worker of [a, b]) worker.child.kill('SIGTERM');
    for (const worker of [a, b]) expect(await worker.done, worker.output()).toEqual({ code: 0, signal: null });
  });

  it('a worker killed mid-phase is replaced: the phase goes on from its pushed checkpoint, the new session told what it left; a worker stopped by SIGTERM mid-phase pushes its work, gives its job back and leaves nothing running', async () => {
    // Set as the workers start; the script reads them to tell the workers' sessions apart.
    const on: { killed?: Worker; stopped?: Worker } = {};
    const script = (req: RecordedRequest): ScriptedTurn => {
      const turn = assistantTurns(req);
      const phase = phaseOf(req);
      if (phase === '1' && ranIn(req, on.killed)) {
        // Past the crossing debussy restarts the session: its checkpoint commit is pushed, then the worker is killed in the next session.
        return sessionKind(req) === 'checkpoint'
          ? ([bash('(sleep 24.1)'), done()][turn] ?? done())
          : ([bash(`debussy progress --phase 1 --message "part one written, token ${SECRET}"`), write('part1.txt', 'part one\n', { usage: CROSSING_USAGE }), done()][turn] ?? done());
      }
      if (phase === '1') return [bash('test -f part1.txt && echo resumed > resumed.txt'), bash('debussy done --phase 1'), done()][turn] ?? done();
      if (ranIn(req, on.stopped)) return [write('part2.txt', 'part two\n'), bash('(sleep 25.1)'), done()][turn] ?? done();
      return [bash('test -f part2.txt && echo again > again.txt'), bash('debussy done --phase 2'), done()][turn] ?? done();
    };
    const { bare } = await queueProject([
      { id: '1', title: 'Checkpointed', gates: [{ name: 'resumed', command: 'test -f resumed.txt' }] },
      { id: '2', title: 'Stopped', dependsOn: ['1'], gates: [{ name: 'again', command: 'test -f again.txt' }] },
    ], script);
    const killed = await startWorker('killed');
    on.killed = killed;
    const run = project!.start(['run', project!.planArg, '--queue', redis!.url]);
    // The checkpoint commit of phase 1 reaches the remote while its second session sleeps; then its worker dies outright.
    await waitFor('the checkpoint on the remote and the second session', async () => asked((r) => phaseOf(r) === '1' && sessionKind(r) === 'checkpoint' && ranIn(r, killed)) && livePids(/^sleep 24\.1$/).length > 0 && (await git(bare, 'for-each-ref', '--format=%(refname)', 'refs/heads/debussy')).includes('/1'), 45_000);
    const branch1 = (await git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/debussy')).trim();
    expect(await git(bare, 'show', `${branch1}:part1.txt`)).toBe('part one\n');
    const checkpoint1 = (await git(bare, 'rev-parse', branch1)).trim();
    await killTree(killed.child.pid ?? 0, 'SIGKILL');

    // A worker that joins takes the job up once the dead one's lock expires; it is stopped by SIGTERM in phase 2.
    const stopped = await startWorker('stopped');
    on.stopped = stopped;
    await waitFor('phase 2 to sleep on the second worker', () => asked((r) => phaseOf(r) === '2' && assistantTurns(r) === 1 && ranIn(r, stopped)) && livePids(/^sleep 25\.1$/).length > 0, 45_000);
    const below = await descendantsOf(stopped.child.pid ?? 0);
    expect(below.length).toBeGreaterThan(0);
    stopped.child.kill('SIGTERM');
    expect(await stopped.done, stopped.output()).toEqual({ code: 0, signal: null });
    for (const pid of below) expect(await isAlive(pid), `pid ${pid} left running`).toBe(false);
    expect(stopped.output()).toMatch(/stopped during phase 2; its work is pushed/);
    const branch2 = (await git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/debussy')).trim().split('\n').find((ref) => ref.endsWith('/2')) ?? '';
    const interrupted2 = (await git(bare, 'rev-parse', branch2)).trim();

    const last = await startWorker('last');
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr + killed.output() + stopped.output() + last.output()).toBe(0);
    for (const file of ['part1.txt', 'resumed.txt', 'part2.txt', 'again.txt']) expect((await git(bare, 'show', `main:${file}`)).trim(), file).not.toBe('');
    const ended = eventsOf(await project!.journal(), 'phase_job').filter((e) => e.stage === 'ended');
    expect(ended.map((e) => [e.phaseId, e.worker?.endsWith(`:${last.child.pid}`) || e.worker?.endsWith(`:${stopped.child.pid}`)])).toEqual([['1', true], ['2', true]]);

    // Each taking-over session starts from a checkpoint rebuilt from what travelled through git:
    // that an earlier worker's session was killed (or stopped), its commits, files and recorded progress.
    const firstPrompt = (phase: string, worker: Worker) => firstUserText(project!.api.mainRequests().find((r) => phaseOf(r) === phase && ranIn(r, worker) && assistantTurns(r) === 0)!);
    const takeover1 = firstPrompt('1', stopped);
    expect(takeover1).toMatch(/^# debussy checkpoint: continuing phase 1/);
    expect(takeover1).toMatch(/worker .*was killed/);
    expect(takeover1).toContain(checkpoint1.slice(0, 10));
    expect(takeover1).toContain('## Progress recorded so far\n1. part one written, token [REDACTED]');
    expect(takeover1).toMatch(/## Files changed since the phase started\n- part1\.txt/);
    const takeover2 = firstPrompt('2', last);
    expect(takeover2).toMatch(/^# debussy checkpoint: continuing phase 2/);
    expect(takeover2).toMatch(/worker .*was stopped/);
    expect(takeover2).toContain(interrupted2.slice(0, 10));
    expect(takeover2).toMatch(/## Files changed since the phase started\n- part2\.txt/);
    // The progress travelled in commit messages, redacted: no secret reached the remote.
    expect(await git(bare, 'log', '--all', '--format=%B')).not.toContain(SECRET);
    expect(takeover1).not.toContain(SECRET.slice(8));
    last.child.kill('SIGTERM');
    expect((await last.done).code).toBe(0);
  });

  it('Redis going away mid-run: the worker and the submitter wait, reconnect and finish, nothing lost', async () => {
    const restarting = await startRedisServer({ persist: true });
    try {
      const { bare } = await queueProject([
        { id: '1', title: 'Through the outage', gates: [{ name: 'one', command: 'test -f one.txt' }] },
        { id: '2', title: 'After it', dependsOn: ['1'], gates: [{ name: 'two', command: 'test -f two.txt' }] },
      ], (req) => (phaseOf(req) === '1'
        ? [bash('(sleep 6.3)'), write('one.txt', 'one\n'), bash('debussy done --phase 1'), done()]
        : [write('two.txt', 'two\n'), bash('debussy done --phase 2'), done()])[assistantTurns(req)] ?? done());
      // A lock longer than the outage: the job stays this worker's while Redis is away.
      const worker = await startWorker('steady', restarting, 15_000);
      const run = project!.start(['run', project!.planArg, '--queue', restarting.url]);
      await waitFor('phase 1 to sleep on the worker', () => asked((r) => phaseOf(r) === '1') && livePids(/^sleep 6\.3$/).length > 0, 30_000);
      await restarting.restart(2500);
      const result = await run.done;
      expect(result.code, result.stdout + result.stderr + worker.output()).toBe(0);
      expect(worker.output()).toMatch(/waiting for it to come back/);
      for (const file of ['one.txt', 'two.txt']) expect((await git(bare, 'show', `main:${file}`)).trim(), file).not.toBe('');
      const ended = eventsOf(await project!.journal(), 'phase_job').filter((e) => e.stage === 'ended');
      expect(ended.map((e) => e.phaseId)).toEqual(['1', '2']);
      // Phase 1 ran once: one session, on the one worker.
      expect(project!.api.mainRequests().filter((r) => phaseOf(r) === '1' && assistantTurns(r) === 0)).toHaveLength(1);
      worker.child.kill('SIGTERM');
      expect((await worker.done).code).toBe(0);
    } finally {
      await restarting.stop();
    }
  });
});
