/**
 * Gathers a checkpoint from the journal (progress, last activity) and git (changed files, diff,
 * the phase's commits, what is not committed yet). git is the truth about commits: it also sees
 * those an earlier, interrupted run made, and those the agent made itself.
 */
import { changedFilesSince, commitsSince, diffSummary, headSha, userChangeLookup } from '../git/index.js';
import type { PhaseState } from '../state/index.js';
import type { Checkpoint } from './checkpoint.js';

export interface CaptureInput {
  root: string;
  phase: PhaseState;
  phaseTitle: string;
  /** HEAD when the phase started; undefined in a repo with no commits. */
  baseSha: string | undefined;
  /** Whether root is in a git repository (whether or not debussy commits there). */
  gitRepo: boolean;
  sessionNumber: number;
  reason: string;
  /** The ending session's last steps; empty: the journal's (an earlier run's, on a resume). */
  lastActivity: string[];
}

function commitLine(sha: string, subject: string): string {
  return `${sha.slice(0, 10)} ${subject}`;
}

async function gitFacts(root: string, baseSha: string | undefined, phase: PhaseState) {
  const head = await headSha(root);
  const [changed, summary, commits, uncommitted] = await Promise.all([
    changedFilesSince(root, baseSha),
    diffSummary(root, baseSha, 40),
    baseSha === undefined ? undefined : commitsSince(root, baseSha),
    changedFilesSince(root, head),
  ]);
  // What the user had changed before the phase began is theirs, not the phase's work.
  const usersOwn = userChangeLookup(phase.userChanges ?? []);
  const isUsers = (file: string) => usersOwn(file) !== undefined;
  return {
    changedFiles: changed.filter((file) => !isUsers(file)),
    userChangedFiles: changed.filter(isUsers),
    summary,
    commits: commits?.map((c) => commitLine(c.sha, c.subject)),
    uncommittedFiles: uncommitted.filter((file) => !isUsers(file)).length,
  };
}

export async function captureCheckpoint(input: CaptureInput): Promise<Checkpoint> {
  const git = input.gitRepo ? await gitFacts(input.root, input.baseSha, input.phase) : undefined;
  const journalCommits = input.phase.commits.map((commit) => commitLine(commit.sha, commit.message.split('\n')[0] ?? ''));
  return {
    phaseId: input.phase.id,
    phaseTitle: input.phaseTitle,
    sessionNumber: input.sessionNumber,
    reason: input.reason,
    progress: input.phase.progress.map((entry) => entry.message),
    changedFiles: git?.changedFiles ?? [],
    ...(git === undefined || git.userChangedFiles.length === 0 ? {} : { userChangedFiles: git.userChangedFiles }),
    diffSummary: git?.summary ?? '',
    lastActivity: input.lastActivity.length > 0 ? input.lastActivity : input.phase.lastActivity,
    commits: git?.commits ?? journalCommits,
    ...(git === undefined ? {} : { uncommittedFiles: git.uncommittedFiles }),
  };
}
