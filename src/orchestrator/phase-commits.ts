/**
 * The auto-commits a phase makes. They hold only what changed during the phase's sessions: the
 * user's changes (recorded before the agent first runs, carried over a resume), credential-like
 * files and files over max_commit_file_size stay out, and a warning names each one once. Every commit is recorded in the journal; a
 * failing hook never loses work.
 */
import {
  buildCommitMessage, commitPaths, decideCommitScope, filesHoldingCredentials, hashWorkingFiles, oversizedFiles, userChangeLookup, userChangesAtPhaseStart, userChangesAtResume, workingTreeStatus,
  type CommitMessageInput, type LeftOut, type LeftOutReason, type UserChange,
} from '../git/index.js';
import { formatConfigSize, formatSize } from '../config/size.js';
import type { PhaseCarry, PhaseContext } from './phase-context.js';

export class PhaseCommits {
  /** `reason\0path` of every left-out path already named in a warning. */
  private readonly named = new Set<string>();

  private constructor(
    private readonly ctx: PhaseContext,
    private readonly phaseId: string,
    private readonly userChanges: readonly UserChange[],
  ) {}

  /**
   * Records which changes in the working tree are the user's, before the agent runs: on a first
   * start everything that differs from HEAD; on a resume the recorded set (never a new one, or
   * the dead run's work would count as the user's) plus what changed while debussy was stopped.
   */
  static async start(ctx: PhaseContext, phaseId: string, carry: PhaseCarry): Promise<PhaseCommits> {
    if (!ctx.useGit) return new PhaseCommits(ctx, phaseId, []);
    const atStop = carry.uncommittedAtStop;
    const userChanges =
      carry.userChanges === undefined
        ? userChangesAtPhaseStart(await workingTreeStatus(ctx.root, { untrackedDirs: 'collapsed' }))
        : userChangesAtResume({
            recorded: carry.userChanges, status: await workingTreeStatus(ctx.root), uncommittedAtStop: atStop,
            hashesNow: await hashesOf(ctx, (atStop ?? []).map((file) => file.path)),
          });
    ctx.recorder.record({ type: 'user_changes', phaseId, changes: userChanges });
    return new PhaseCommits(ctx, phaseId, userChanges);
  }

  /** Commits the phase's work; the sha, or undefined when nothing was committed. */
  async commit(input: Omit<CommitMessageInput, 'planName'>): Promise<string | undefined> {
    const { ctx } = this;
    if (!ctx.useGit) return undefined;
    // debussy's config and plan, deleted by the agent, are written back first: a deletion never committed.
    const gone = new Set(ctx.keepInputs?.() ?? []);
    const status = await workingTreeStatus(ctx.root);
    const changed = [...status.trackedChanges, ...status.untracked];
    const usersChange = userChangeLookup(this.userChanges);
    const maxBytes = ctx.config.max_commit_file_size;
    const oversized = { maxBytes, sizes: await oversizedFiles(ctx.root, changed.filter((path) => usersChange(path) === undefined), maxBytes) };
    const holdingCredentials = ctx.config.commit_secrets ? new Set<string>() : await filesHoldingCredentials(ctx.root, changed, ctx.recorder.redact);
    const scope = decideCommitScope({ userChanges: this.userChanges, changed, holdingCredentials, commitSecrets: ctx.config.commit_secrets, oversized });
    this.warnLeftOut(scope.leftOut);
    const message = ctx.recorder.redact(buildCommitMessage({ planName: ctx.plan.name, ...input, ...(await this.progressToCarry(input.purpose)) }));
    const result = await commitPaths(ctx.root, message, scope.commit.filter((path) => !gone.has(path)));
    if (result.committed && result.sha) {
      ctx.recorder.record({ type: 'commit', phaseId: input.phaseId, sha: result.sha, message, files: result.files.length, purpose: input.purpose });
      if (result.indexWarning !== undefined) {
        ctx.recorder.record({ type: 'notice', level: 'warning', phaseId: input.phaseId, message: `committed ${result.sha.slice(0, 10)}, but the index still holds the committed files as they were before the commit (${result.indexWarning}); run \`git reset -q\` on them` });
      }
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

  /** A queue worker's commits of an unfinished phase carry its progress (redacted whole before the commit cuts it) to the next worker. */
  private async progressToCarry(purpose: CommitMessageInput['purpose']): Promise<Pick<CommitMessageInput, 'progress'>> {
    const { ctx } = this;
    if (ctx.progressInCommits !== true || (purpose !== 'checkpoint' && purpose !== 'interrupted')) return {};
    const progress = (await ctx.recorder.state()).phases[this.phaseId]?.progress ?? [];
    return { progress: progress.map((entry) => ctx.recorder.redact(entry.message)) };
  }

  private warnLeftOut(leftOut: readonly LeftOut[]): void {
    const fresh = leftOut.filter((entry) => !this.named.has(`${entry.reason}\0${entry.path}`));
    if (fresh.length === 0) return;
    for (const entry of fresh) this.named.add(`${entry.reason}\0${entry.path}`);
    this.ctx.recorder.record({ type: 'notice', level: 'warning', phaseId: this.phaseId, message: describeLeftOut(fresh) });
  }

  /**
   * When the phase ends unfinished, however (a stop, a budget, an abort, a failure): what of its
   * work stays uncommitted (the user's changes are recorded already), so the run that resumes it
   * takes that on and tells the user's later edits apart.
   */
  async recordLeftAtStop(): Promise<void> {
    if (!this.ctx.useGit) return;
    const status = await workingTreeStatus(this.ctx.root);
    const usersChange = userChangeLookup(this.userChanges);
    const phasePaths = [...new Set([...status.trackedChanges, ...status.untracked])].filter((path) => usersChange(path) === undefined).sort();
    const hashes = await hashesOf(this.ctx, phasePaths);
    this.ctx.recorder.record({ type: 'uncommitted_at_stop', phaseId: this.phaseId, files: [...hashes].map(([path, hash]) => ({ path, hash })) });
  }
}

/**
 * The files' git blob ids, to tell later whether they changed; null for a file over
 * max_commit_file_size, which is never committed (hashing 2 GB took git 57 s), and for none.
 */
async function hashesOf(ctx: PhaseContext, paths: readonly string[]): Promise<Map<string, string | null>> {
  const tooLarge = await oversizedFiles(ctx.root, paths, ctx.config.max_commit_file_size);
  const hashes = await hashWorkingFiles(ctx.root, paths.filter((path) => !tooLarge.has(path)));
  return new Map(paths.map((path) => [path, hashes.get(path) ?? null]));
}

const REASON_TEXT: Record<LeftOutReason, string> = {
  untracked_before_phase: 'untracked before the phase began',
  modified_before_phase: 'modified before the phase began',
  changed_between_runs: 'changed while debussy was stopped',
  looks_like_credentials: 'look like credentials; set commit_secrets: true to commit such files',
  too_large: 'larger than max_commit_file_size, LIMIT; raise it, or set it to 0, to commit such files',
};

const NAMES_PER_REASON = 8;

/**
 * The warning that names what a phase's commit left in the working tree, grouped by reason (the
 * notice adds the phase):
 *   not committed, left as they are in the working tree: .env (untracked before the phase began); ...
 * Pure.
 */
export function describeLeftOut(leftOut: readonly LeftOut[]): string {
  const groups: string[] = [];
  for (const reason of Object.keys(REASON_TEXT) as LeftOutReason[]) {
    const entries = leftOut.filter((entry) => entry.reason === reason);
    const [first] = entries;
    if (first === undefined) continue;
    const shown = entries.slice(0, NAMES_PER_REASON).map((entry) => (entry.reason === 'too_large' ? `${entry.path} (${formatSize(entry.bytes)})` : entry.path)).join(', ');
    const more = entries.length > NAMES_PER_REASON ? ` and ${entries.length - NAMES_PER_REASON} more` : '';
    const why = first.reason === 'too_large' ? REASON_TEXT.too_large.replace('LIMIT', formatConfigSize(first.maxBytes)) : REASON_TEXT[reason];
    groups.push(`${shown}${more} (${why})`);
  }
  return `not committed, left as they are in the working tree: ${groups.join('; ')}`;
}
