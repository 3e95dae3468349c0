/**
 * `debussy run PLAN --queue URL`: the run as on one machine under --parallel (the same
 * supervisor, its ready phases, its merges one at a time in dependency order), but each phase runs
 * on a queue worker: its job is added when its dependencies are merged (one job per run and phase:
 * a job added again is the same job, so nothing runs twice), followed through QueueEvents, and its
 * pushed branch fetched back into the phase's worktree here, ready to merge. The code travels by
 * the git remote: the run's branch is pushed before each job, and at the end.
 */
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { GitError, UsageError } from '../errors/index.js';
import { firstLines, runGit } from '../git/run-git.js';
import { currentBranch, whileNoWorktreeIsAdded } from '../git/worktree.js';
import type { PhaseCarry, PhaseContext, PhaseResult } from '../orchestrator/phase-context.js';
import type { Phase } from '../plan/types.js';
import { PHASE_QUEUE, requireConnected, type QueueConnection } from './connection.js';
import { phaseResultOfJob } from './job-outcome.js';
import { parsePhaseJobResult, phaseJobId, PHASE_JOB_VERSION, remoteProblem, type PhaseJob } from './phase-job.js';

/** A job's tries: a worker that stops gives its job back (a try spent); a crash-looping job ends failed. */
const JOB_ATTEMPTS = 5;
const KEEP_SECONDS = 7 * 24 * 3600;

async function git(dir: string, args: readonly string[], what: string): Promise<string> {
  const out = await runGit(dir, args);
  if (out.exitCode !== 0) throw new GitError(`${what} failed: ${firstLines(out.stderr || out.stdout, 3)}`);
  return out.stdout.trim();
}

/** The remote the workers fetch from: a remote's name (its URL), else a URL or a path as given (a path made absolute). */
export async function resolveRemote(root: string, remote: string): Promise<string> {
  const named = await runGit(root, ['remote', 'get-url', '--', remote]);
  const url = named.exitCode === 0 ? named.stdout.trim() : /^[a-z][a-z0-9+.-]*:\/\/|^[^/]+@[^/:]+:/i.test(remote) ? remote : path.resolve(root, remote);
  if (named.exitCode !== 0 && remote === 'origin') {
    throw new UsageError('--queue: this repository has no remote named origin for the workers to fetch from', 'Add one (git remote add origin URL) or name it: --remote NAME|URL.');
  }
  const problem = remoteProblem(url);
  if (problem !== undefined) throw new UsageError(`--remote ${remote}: ${problem}`, 'Give the workers a remote without credentials in it; each worker logs in by its own means.');
  return url;
}

/** The worker's commits of a phase, into the phase's worktree here: what the merge takes in (never forced: nothing of it is dropped). */
export async function bringBackPhase(worktree: string, remote: string, branch: string, commitSha: string): Promise<void> {
  // Never beside a `git worktree add` of the supervisor's: the fetch's check would find that worktree's HEAD unborn and fail.
  await whileNoWorktreeIsAdded(() => git(worktree, ['fetch', '--quiet', remote, `refs/heads/${branch}`], `fetching ${branch}`));
  await git(worktree, ['merge', '--quiet', '--ff-only', commitSha], `bringing ${branch} up to ${commitSha.slice(0, 12)}`);
}

const aborted = new WeakMap<AbortSignal, Promise<'interrupted'>>();

/** Settles when `signal` is aborted: one listener per signal, however many jobs wait on it (the run's stop is shared by its phases). */
function whenAborted(signal: AbortSignal): Promise<'interrupted'> {
  let promise = aborted.get(signal);
  if (promise === undefined) {
    promise = new Promise((resolve) => {
      if (signal.aborted) resolve('interrupted');
      else signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
    });
    aborted.set(signal, promise);
  }
  return promise;
}

export class QueueSubmitter {
  private pushes: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly root: string,
    readonly remote: string,
    readonly runBranch: string,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
  ) {}

  static async open(root: string, connection: QueueConnection, remoteArg: string, env: NodeJS.ProcessEnv): Promise<QueueSubmitter> {
    const remote = await resolveRemote(root, remoteArg);
    const runBranch = await currentBranch(root);
    if (runBranch === undefined) throw new UsageError('--queue merges each phase into the branch checked out, and HEAD is detached', 'Check out a branch (git switch -c my-run), then run again.');
    const queue = new Queue(PHASE_QUEUE, { connection: connection.options });
    // Errors while Redis is away are retried by the client; listening keeps them from being thrown.
    queue.on('error', () => {});
    // BullMQ's wait for a job listens to the queue's 'closing' once per job: as many as phases run at once, no leak.
    queue.setMaxListeners(0);
    try {
      await requireConnected(queue, connection, env);
    } catch (error) {
      await queue.close();
      throw error;
    }
    // Made once Redis answers: a QueueEvents that never connected cannot be closed (BullMQ 6.7).
    const events = new QueueEvents(PHASE_QUEUE, { connection: connection.options });
    events.on('error', () => {});
    return new QueueSubmitter(root, remote, runBranch, queue, events);
  }

  /** The run's branch as merged so far, on the remote (pushes one at a time: two at once would race for the ref). */
  async pushRunBranch(): Promise<string> {
    const next = this.pushes.then(async () => {
      const sha = await git(this.root, ['rev-parse', 'HEAD'], 'git rev-parse');
      await git(this.root, ['push', '--quiet', this.remote, `${sha}:refs/heads/${this.runBranch}`], `pushing ${this.runBranch} to ${this.remote}`);
      return sha;
    });
    this.pushes = next.catch(() => undefined);
    return next;
  }

  /** The supervisor's runAt: the phase as a job, its result as the phase's, its branch fetched into the worktree. */
  readonly runAt = async (phaseCtx: PhaseContext, phase: Phase, _carry: PhaseCarry, where: { branch: string; worktree: string }): Promise<PhaseResult> => {
    const { recorder } = phaseCtx;
    const baseSha = await this.pushRunBranch();
    const job: PhaseJob = {
      v: PHASE_JOB_VERSION, remote: this.remote, runBranch: this.runBranch, baseSha, runId: phaseCtx.runId,
      planPath: path.relative(phaseCtx.root, phaseCtx.plan.path), phaseId: phase.id, phaseBranch: where.branch,
    };
    const jobId = phaseJobId(where.branch);
    const added = await this.queue.add('phase', job, { jobId, attempts: JOB_ATTEMPTS, removeOnComplete: { age: KEEP_SECONDS }, removeOnFail: { age: KEEP_SECONDS } });
    // The job of an earlier run of this phase: completed, its result is taken as it is; failed for good, it gets its tries again.
    if ((await added.getState()) === 'failed') await added.retry('failed', { resetAttemptsMade: true });
    recorder.record({ type: 'phase_job', phaseId: phase.id, jobId, stage: 'queued' });
    recorder.record({ type: 'phase_started', phaseId: phase.id, title: phase.title, baseSha });
    const interrupted = whenAborted(phaseCtx.interrupt);
    let returned: unknown;
    try {
      // A Ctrl-C here leaves the job to its worker: its branch is kept, and the next run resumes from it.
      const outcome = await Promise.race([added.waitUntilFinished(this.events).then((value: unknown) => ({ value })), interrupted]);
      if (outcome === 'interrupted') return { status: 'interrupted' };
      returned = outcome.value;
    } catch (error) {
      const reason = `its job ${jobId} failed on the queue: ${error instanceof Error ? error.message : String(error)}`;
      recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'failed', reason });
      return { status: 'failed', reason, hint: 'See the worker\'s output; debussy run again adds a new job.' };
    }
    const parsed = parsePhaseJobResult(returned);
    if (!parsed.ok) {
      const reason = `its job ${jobId} came back with a result debussy does not take: ${parsed.problem}`;
      recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'failed', reason });
      return { status: 'failed', reason, hint: 'Check which workers serve this queue.' };
    }
    const result = parsed.value;
    recorder.record({ type: 'phase_job', phaseId: phase.id, jobId, stage: 'ended', worker: result.worker, status: result.status, commitSha: result.commitSha, costUsd: result.costUsd });
    await bringBackPhase(where.worktree, this.remote, where.branch, result.commitSha);
    const phaseResult = phaseResultOfJob(result);
    if (phaseResult.status !== 'interrupted' && phaseResult.status !== 'paused') {
      recorder.record({ type: 'phase_ended', phaseId: phase.id, status: phaseResult.status === 'aborted' ? 'failed' : phaseResult.status, ...('reason' in phaseResult ? { reason: phaseResult.reason } : {}) });
    }
    return phaseResult;
  };

  /** Closes the connections; a Redis away at the end is not waited for past a few seconds (the run is over). */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 5000);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([this.events.close(), this.queue.close()]), late]);
    clearTimeout(timer);
  }
}
