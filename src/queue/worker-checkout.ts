/**
 * A worker's own checkout of the repository, and the git it does there for a phase job: fetch
 * from the job's remote, check out the phase's branch (the one a worker before it pushed, to go on
 * from its last checkpoint, or a new one from the run's branch at the job's commit), and push it.
 * Every remote and branch here comes from a validated job (phase-job.ts); none can be an option.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { GitError } from '../errors/index.js';
import { firstLines, runGit } from '../git/run-git.js';
import type { PhaseJob } from './phase-job.js';

const REMOTE = 'debussy-queue';

async function git(dir: string, args: readonly string[], what: string): Promise<string> {
  const out = await runGit(dir, args);
  if (out.exitCode !== 0) throw new GitError(`${what} failed in ${dir}: ${firstLines(out.stderr || out.stdout, 3)}`);
  return out.stdout.trim();
}

/** The checkout at `dir` on the job's phase branch, its tree exactly that branch's head; returns that head. */
export async function checkOutPhase(dir: string, job: PhaseJob): Promise<string> {
  if (!existsSync(path.join(dir, '.git'))) {
    mkdirSync(dir, { recursive: true });
    await git(dir, ['init', '--quiet'], 'git init');
  }
  const remotes = (await runGit(dir, ['remote'])).stdout.split('\n');
  await git(dir, remotes.includes(REMOTE) ? ['remote', 'set-url', REMOTE, job.remote] : ['remote', 'add', REMOTE, job.remote], 'setting the queue remote');
  await git(dir, ['fetch', '--quiet', '--prune', REMOTE, `+refs/heads/${job.runBranch}:refs/remotes/${REMOTE}/${job.runBranch}`], `git fetch ${job.runBranch}`);
  // The phase branch exists on the remote when a worker before this one ran the phase and pushed a checkpoint.
  const pushed = await runGit(dir, ['fetch', '--quiet', REMOTE, `+refs/heads/${job.phaseBranch}:refs/remotes/${REMOTE}/${job.phaseBranch}`]);
  const start = pushed.exitCode === 0 ? `refs/remotes/${REMOTE}/${job.phaseBranch}` : job.baseSha;
  // What a killed phase left in this checkout is on the remote up to its last checkpoint; the rest goes.
  await runGit(dir, ['merge', '--abort']);
  await git(dir, ['checkout', '--quiet', '--force', '-B', job.phaseBranch, start], `git checkout ${job.phaseBranch}`);
  await git(dir, ['clean', '--quiet', '-fd'], 'git clean');
  return git(dir, ['rev-parse', 'HEAD'], 'git rev-parse');
}

export async function headSha(dir: string): Promise<string> {
  return git(dir, ['rev-parse', 'HEAD'], 'git rev-parse');
}

/** Pushes the phase branch (never forced: a worker that lost its job to another cannot overwrite the other's work). */
export async function pushPhase(dir: string, job: PhaseJob): Promise<string> {
  const sha = await headSha(dir);
  await git(dir, ['push', '--quiet', REMOTE, `${sha}:refs/heads/${job.phaseBranch}`], `git push ${job.phaseBranch}`);
  return sha;
}

/**
 * Pushes the phase branch whenever its head moved (a checkpoint commit, a restart's commit), so a
 * worker killed mid-phase leaves its last checkpoint on the remote for the next one.
 */
export function pushCheckpoints(dir: string, job: PhaseJob, everyMs: number, since: string): { stop: () => Promise<void> } {
  let pushed = since;
  let busy: Promise<void> = Promise.resolve();
  const tick = () => {
    busy = busy.then(async () => {
      const sha = (await runGit(dir, ['rev-parse', 'HEAD'])).stdout.trim();
      if (sha === '' || sha === pushed) return;
      if ((await runGit(dir, ['push', '--quiet', REMOTE, `${sha}:refs/heads/${job.phaseBranch}`])).exitCode === 0) pushed = sha;
    });
  };
  const timer = setInterval(tick, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await busy;
    },
  };
}
