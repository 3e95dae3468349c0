/**
 * Found by bench figure 9 (1 run in 5 of 24 phases on 3 workers aborted): `git worktree add`
 * gives the new worktree a HEAD of no commit for a moment, and a `git fetch` anywhere in the
 * repository then fails its check of what it received ("fatal: bad object
 * worktrees/NAME/HEAD", "did not send all necessary objects"; git 2.39). Under --queue the
 * submitter fetches a finished phase's branch into its worktree while the supervisor adds the
 * worktrees of the phases its merges made ready. Real git, real temp repositories: the moment is
 * a few milliseconds wide (a stress of 100 adds beside 6 fetch loops met it in about half the
 * runs), so the first test holds `git worktree add` in it, through a git exec path of its own,
 * and fetches beside it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addWorktree, whileNoWorktreeIsAdded } from '../../src/git/worktree.js';
import { bringBackPhase } from '../../src/queue/submitter.js';
import { waitFor } from '../e2e/processes.js';
import { git, tempGitRepo, type TempDir } from '../support/temp-git-repo.js';

let repo: TempDir | undefined;
let scratch: string | undefined;
const savedExecPath = process.env.GIT_EXEC_PATH;
afterEach(async () => {
  if (savedExecPath === undefined) delete process.env.GIT_EXEC_PATH;
  else process.env.GIT_EXEC_PATH = savedExecPath;
  await repo?.cleanup();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  repo = undefined;
  scratch = undefined;
});

/**
 * A git exec path in `dir`: the real one's commands, and in front of them a `git` (the one git's
 * own subcommands run) that holds `git worktree add` while the new worktree's HEAD is still the
 * null id, in its `symbolic-ref HEAD` (run with GIT_WORK_TREE set), until a `rev-list` (a fetch's
 * check of what it received) has run beside it, or for at most 4 s. `held` appears once it holds.
 */
function holdingExecPath(dir: string): { execPath: string; held: string } {
  const real = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  const execPath = path.join(dir, 'exec-path');
  const [held, checked] = [path.join(dir, 'held'), path.join(dir, 'checked')];
  mkdirSync(execPath);
  for (const name of readdirSync(real)) if (name !== 'git') symlinkSync(path.join(real, name), path.join(execPath, name));
  writeFileSync(path.join(execPath, 'git'), `#!/bin/sh
if [ "$1" = symbolic-ref ] && [ "$2" = HEAD ] && [ -n "$GIT_WORK_TREE" ]; then
  touch '${held}'; i=0
  while [ ! -e '${checked}' ] && [ $i -lt 40 ]; do sleep 0.1; i=$((i+1)); done
fi
if [ "$1" = rev-list ]; then '${real}/git' "$@"; code=$?; touch '${checked}'; exit $code; fi
exec '${real}/git' "$@"
`, { mode: 0o755 });
  return { execPath, held };
}

describe('bringing a phase back while worktrees are added', () => {
  it('fetches a phase back into its worktree only once the worktree being added beside it has its HEAD (before: "bad object worktrees/NAME/HEAD" every time)', async () => {
    repo = await tempGitRepo();
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-fetch-'));
    const root = repo.dir;
    const remote = path.join(scratch, 'remote.git');
    await git(scratch, 'clone', '--quiet', '--bare', root, remote);
    // A phase as its worker leaves it: one commit on its branch, pushed to the remote.
    const worker = path.join(scratch, 'worker');
    await git(scratch, 'clone', '--quiet', remote, worker);
    const branch = 'debussy/run/1';
    const worktree = path.join(scratch, 'phase-1');
    await addWorktree(root, worktree, branch, 'HEAD');
    await git(worker, 'checkout', '--quiet', '-B', branch, 'origin/main');
    await git(worker, '-c', 'user.name=Worker', '-c', 'user.email=worker@debussy.invalid', 'commit', '--quiet', '--allow-empty', '-m', 'phase 1');
    await git(worker, 'push', '--quiet', 'origin', branch);
    const sha = (await git(worker, 'rev-parse', 'HEAD')).trim();

    // The supervisor adds the worktree of a phase just made ready; the phase's result comes back meanwhile.
    const { execPath, held } = holdingExecPath(scratch);
    process.env.GIT_EXEC_PATH = execPath;
    const added = addWorktree(root, path.join(scratch, 'ready'), 'debussy/run/ready', 'HEAD');
    await waitFor('git worktree add to hold before its HEAD', () => existsSync(held));
    const fetched = await bringBackPhase(worktree, remote, branch, sha).then(() => 'fetched', (error: unknown) => (error as Error).message);
    expect(fetched).toBe('fetched');
    expect(await added).toBe('added');
    expect((await git(worktree, 'rev-parse', 'HEAD')).trim()).toBe(sha);
  });

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

