/** What --parallel (and --queue, which runs on it) needs before a run starts: git commits (each phase's work travels by its branch) and a branch checked out to merge into. */
import { ConfigError, UsageError } from '../../errors/index.js';
import { currentBranch } from '../../git/worktree.js';

export async function checkParallelSetup(root: string, useGit: boolean, flag: '--parallel' | '--queue' = '--parallel'): Promise<void> {
  if (!useGit) throw new ConfigError(`${flag} runs each phase in a git worktree and merges its commits, so it needs a git repository and auto_commit on`, `Run in a git repository with auto_commit on, or without ${flag}${flag === '--parallel' ? ' (max_parallel: 1)' : ''}.`);
  if ((await currentBranch(root)) === undefined) throw new UsageError(`${flag} merges each phase into the branch checked out, and HEAD is detached`, 'Check out a branch (git switch -c my-run), then run again.');
}
