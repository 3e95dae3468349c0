import { emptyTreeSha, headSha } from './repo.js';
import { gitQuery, gitStdout, splitNul } from './run-git.js';
import { scopePathspecs } from './run-data.js';

/** Flags that keep diff output about paths and counts only, whatever the user's diff config says. */
export const PLAIN_DIFF_FLAGS = ['--no-renames', '--no-ext-diff', '--no-textconv', '--relative'] as const;

/**
 * Every file under `root` whose content now differs from `baseSha`: changed by commits made
 * since, changed and not committed (staged or not), deleted, or new and not ignored. With no base
 * (a repository that had no commit when the phase started) every non-ignored file counts.
 * Paths are relative to root, sorted, without debussy's run data.
 */
export async function changedFilesSince(root: string, baseSha: string | undefined): Promise<string[]> {
  const base = baseSha ?? (await emptyTreeSha(root));
  const [tracked, untracked] = await Promise.all([
    gitQuery(root, ['diff'], (git) => git.diff(['--name-only', '-z', ...PLAIN_DIFF_FLAGS, base, '--', ...scopePathspecs()])),
    untrackedFiles(root),
  ]);
  return [...new Set([...splitNul(tracked), ...untracked])].sort();
}

/** New files git does not track and does not ignore, relative to root. */
export async function untrackedFiles(root: string): Promise<string[]> {
  return splitNul(await gitStdout(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', ...scopePathspecs()]));
}

/** A commit as `git log` shows it: the body is the message after the subject line; the date the author's, ISO 8601. */
export interface LoggedCommit {
  sha: string;
  subject: string;
  body: string;
  date: string;
}

/** Commits reachable from HEAD but not from `baseSha`, oldest first. Empty on an unborn branch. */
export async function commitsSince(root: string, baseSha: string): Promise<LoggedCommit[]> {
  if ((await headSha(root)) === undefined) return [];
  const log = await gitQuery(root, ['log'], (git) => git.log(['--reverse', `${baseSha}..HEAD`, '--']));
  return log.all.map((commit) => ({ sha: commit.hash, subject: commit.message, body: commit.body, date: commit.date }));
}
