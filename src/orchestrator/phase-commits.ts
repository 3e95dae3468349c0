/** The auto-commits a phase makes, each recorded in the journal; a failing hook never loses work. */
import { buildCommitMessage, commitAll, type CommitMessageInput } from '../git/index.js';
import type { PhaseContext } from './phase-context.js';

export async function commitPhaseWork(ctx: PhaseContext, input: Omit<CommitMessageInput, 'planName'>): Promise<string | undefined> {
  if (!ctx.useGit) return undefined;
  const message = ctx.recorder.redact(buildCommitMessage({ planName: ctx.plan.name, ...input }));
  const result = await commitAll(ctx.root, message);
  if (result.committed && result.sha) {
    ctx.recorder.record({ type: 'commit', phaseId: input.phaseId, sha: result.sha, message, files: result.files.length, purpose: input.purpose });
    return result.sha;
  }
  if (result.reason === 'hook-failed' || result.reason === 'error') {
    const why = result.reason === 'hook-failed' ? 'a commit hook refused it' : 'git failed';
    ctx.recorder.record({
      type: 'commit_failed',
      phaseId: input.phaseId,
      message: `auto-commit skipped (${why}): ${(result.error ?? '').split('\n').slice(0, 3).join(' ')}; the work stays in the working tree`,
    });
  }
  return undefined;
}
