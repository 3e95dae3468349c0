/**
 * A worker that takes up a phase another worker ran (killed, lost, or stopped): the first session
 * here starts from a checkpoint, as a resumed phase does on one machine. This worker has no
 * journal of the phase: what it knows travelled through git, the phase branch's commits since the
 * job's base. They give the checkpoint its commits and changed files (captured from git as always,
 * from the job's base), and their messages give the progress the agent recorded and the restarts
 * counted (a worker's checkpoint commits carry both: git/commit-message.ts). Pure.
 */
import { readCommitMessage, type LoggedCommit } from '../git/index.js';
import type { PhaseCarry } from '../orchestrator/phase-context.js';
import { cutText } from '../redact/redact-then-cut.js';
import { inertLine } from '../text/inert-text.js';
import type { PhaseJob } from './phase-job.js';

export interface Takeover {
  /** Where the phase's first session here starts: a checkpoint of what the worker before pushed. */
  carry: PhaseCarry;
  /** The phase branch's commits since the job's base, and the newest of them. */
  commits: number;
  head: LoggedCommit;
}

const LONGEST_SUBJECT = 120;

/** The phase's commits since the job's base (oldest first) as a checkpoint to start from; undefined when there are none (a fresh start). */
export function decideTakeover(job: Pick<PhaseJob, 'phaseId' | 'runId' | 'baseSha'>, commits: readonly LoggedCommit[]): Takeover | undefined {
  const head = commits[commits.length - 1];
  if (head === undefined) return undefined;
  // debussy's own commits of this phase, newest first: the agent's own commits carry nothing to read.
  const read = commits.map((commit) => ({ commit, message: readCommitMessage(commit.body) })).filter(({ message }) => message.phaseId === job.phaseId).reverse();
  // Each checkpoint commit carries the progress recorded so far: the newest that has any holds it all.
  const withProgress = read.find(({ message }) => message.progress.length > 0);
  const progress = withProgress === undefined ? [] : withProgress.message.progress.map((message) => ({ message, ts: withProgress.commit.date }));
  const restarts = Math.max(0, ...read.map(({ message }) => message.restart ?? 0));
  return {
    carry: {
      restarts, retries: 0, sessions: 0, baseSha: job.baseSha,
      resumeReason: describeTakeover(head, read[0]?.commit === head ? read[0].message.purpose : undefined),
      resumedFrom: { runId: job.runId, progress, lastActivity: [] },
    },
    commits: commits.length,
    head,
  };
}

/**
 * Why the session starts from a checkpoint, said plainly to the agent: a worker stopped by a
 * signal commits its work as `interrupted` before it pushes; anything else as the last commit
 * means the worker went away without that (killed, its machine lost).
 */
export function describeTakeover(head: Pick<LoggedCommit, 'sha' | 'subject'>, headPurpose: string | undefined): string {
  const at = `the phase branch at ${head.sha.slice(0, 10)} "${cutText(inertLine(head.subject), LONGEST_SUBJECT, '…')}"`;
  return headPurpose === 'interrupted'
    ? `the worker that ran it before (another \`debussy worker\`) was stopped during a session and pushed its work; this worker took the job over from ${at}`
    : `the worker that ran it before (another \`debussy worker\`) was killed or lost during a session; this worker took the job over from what it had pushed, ${at}, and whatever that session did after its last push is lost`;
}
