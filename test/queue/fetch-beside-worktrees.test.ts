/**
 * Found by bench figure 9 (1 run in 5 of 24 phases on 3 workers aborted): `git worktree add`
 * gives the new worktree a HEAD of no commit for a moment, and a `git fetch` anywhere in the
 * repository then fails its check of what it received ("fatal: bad object
 * worktrees/NAME/HEAD", "did not send all necessary objects"; git 2.39). Under --queue the
 * submitter fetches a finished phase's branch into its worktree while the supervisor adds the
 * worktrees of the phases its merges made ready. Real git, real temp repositories: a phase's
 * branch fetched back again and again while worktrees are added beside it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addWorktree, whileNoWorktreeIsAdded } from '../../src/git/worktree.js';
import { bringBackPhase } from '../../src/queue/submitter.js';
import { git, tempGitRepo, type TempDir } from '../support/temp-git-repo.js';

let repo: TempDir | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await repo?.cleanup();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  repo = undefined;
  scratch = undefined;
});

describe('bringing a phase back while worktrees are added', () => {
  it('fetches six phases back into their worktrees every time while 100 worktrees are added beside them (before: 1-6 of 200-400 fetches failed, in about half the runs)', async () => {
    repo = await tempGitRepo();
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-fetch-'));
    const root = repo.dir;
    const remote = path.join(scratch, 'remote.git');
    await git(scratch, 'clone', '--quiet', '--bare', root, remote);
    // Six phases as workers leave them: one commit each on its branch, pushed to the remote.
    const worker = path.join(scratch, 'worker');
    await git(scratch, 'clone', '--quiet', remote, worker);
    const phases: { worktree: string; branch: string; sha: string }[] = [];
    for (const id of ['1', '2', '3', '4', '5', '6']) {
      const branch = `debussy/run/${id}`;
      const worktree = path.join(scratch, `phase-${id}`);
      await addWorktree(root, worktree, branch, 'HEAD');
      await git(worker, 'checkout', '--quiet', '-B', branch, 'origin/main');
      await git(worker, '-c', 'user.name=Worker', '-c', 'user.email=worker@debussy.invalid', 'commit', '--quiet', '--allow-empty', '-m', `phase ${id}`);
      await git(worker, 'push', '--quiet', 'origin', branch);
      phases.push({ worktree, branch, sha: (await git(worker, 'rev-parse', 'HEAD')).trim() });
    }

    let adding = true;
    const adds = (async () => {
      for (let i = 0; i < 100; i++) await addWorktree(root, path.join(remote, '..', `ready-${i}`), `debussy/run/r${i}`, 'HEAD');
      adding = false;
    })();
    const failures: string[] = [];
    let fetches = 0;
    // The results come back at once, as from six workers, each into its phase's worktree.
    const fetching = async (phase: (typeof phases)[number]) => {
      while (adding) {
        fetches += 1;
        await bringBackPhase(phase.worktree, remote, phase.branch, phase.sha).catch((error: unknown) => failures.push((error as Error).message));
      }
    };
    await Promise.all([adds, ...phases.map(fetching)]);
    expect(fetches).toBeGreaterThan(30);
    expect(failures, `${failures.length} of ${fetches} fetches failed`).toEqual([]);
    for (const phase of phases) expect((await git(phase.worktree, 'rev-parse', 'HEAD')).trim()).toBe(phase.sha);
  }, 90_000);

  it('a worktree is added once the fetches running have ended; a fetch asked for during an add runs once the worktree is whole', async () => {
    repo = await tempGitRepo();
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-fetch-'));
    const root = repo.dir;
    let endFetch: () => void = () => {};
    let fetchRunning: () => void = () => {};
    const running = new Promise<void>((resolve) => (fetchRunning = resolve));
    const fetch = whileNoWorktreeIsAdded(() => new Promise<void>((resolve) => {
      endFetch = resolve;
      fetchRunning();
    }));
    await running;
    const first = path.join(scratch, 'first');
    const added = addWorktree(root, first, 'debussy/run/first', 'HEAD');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(first), 'added beside a running fetch').toBe(false);
    endFetch();
    await fetch;
    expect(await added).toBe('added');

    const second = path.join(scratch, 'second');
    const adding = addWorktree(root, second, 'debussy/run/second', 'HEAD');
    const seen = await whileNoWorktreeIsAdded(async () => (await git(second, 'rev-parse', 'HEAD')).trim());
    expect(seen).toBe((await git(root, 'rev-parse', 'HEAD')).trim());
    expect(await adding).toBe('added');
  });
});

