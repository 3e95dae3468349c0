/**
 * The prompt of a session that continues a phase: the checkpoint first (so the model reads it
 * before anything else), then the original phase prompt. Pure.
 */
import type { Checkpoint } from '../checkpoint/checkpoint.js';

export const CHECKPOINT_HEADING = '# debussy checkpoint: continuing phase';

function section(title: string, lines: string[], empty: string): string {
  return `## ${title}\n${lines.length > 0 ? lines.join('\n') : empty}`;
}

/** Where the earlier sessions' work is: committed, in the working tree, or both. */
export function describeWorkState(checkpoint: Pick<Checkpoint, 'commits' | 'uncommittedFiles'>): string {
  const committed = checkpoint.commits.length > 0;
  const uncommitted = checkpoint.uncommittedFiles;
  if (uncommitted === undefined) return committed ? 'Its work is kept and committed.' : 'Its work is kept in the working tree.';
  const files = uncommitted === 1 ? '1 file differs' : `${uncommitted} files differ`;
  if (committed && uncommitted > 0) return `Its work is partly committed (see the commits below); in the working tree, ${files} from the last commit, not committed yet.`;
  if (committed) return 'Its work is committed (see the commits below); the working tree has nothing uncommitted.';
  if (uncommitted > 0) return `Its work is not committed: it is in the working tree (${files} from the last commit).`;
  return 'It left no changes: nothing is committed and the working tree is clean.';
}

export function renderCheckpoint(checkpoint: Checkpoint): string {
  const parts = [
    `${CHECKPOINT_HEADING} ${checkpoint.phaseId} (${checkpoint.phaseTitle}), session ${checkpoint.sessionNumber}`,
    `An earlier session of this phase ended: ${checkpoint.reason}. ${describeWorkState(checkpoint)} ` +
      'Do not redo finished work: check the files below, continue from where it stopped, and keep recording progress.',
    section('Progress recorded so far', checkpoint.progress.map((entry, i) => `${i + 1}. ${entry}`), '(none recorded: inspect the changed files)'),
    section('Files changed since the phase started', checkpoint.changedFiles.map((file) => `- ${file}`), '(none)'),
  ];
  if (checkpoint.userChangedFiles !== undefined && checkpoint.userChangedFiles.length > 0) {
    parts.push(section('Files the user had changed before the phase started (theirs: keep their changes, do not undo or commit them)', checkpoint.userChangedFiles.map((file) => `- ${file}`), ''));
  }
  if (checkpoint.diffSummary.trim() !== '') parts.push(`## Diff summary\n\`\`\`\n${checkpoint.diffSummary.trim()}\n\`\`\``);
  if (checkpoint.commits.length > 0) parts.push(section('Commits made in this phase', checkpoint.commits.map((c) => `- ${c}`), ''));
  parts.push(section('What the previous session was doing last', checkpoint.lastActivity.map((line) => `- ${line}`), '(nothing recorded)'));
  return parts.join('\n\n');
}

export function buildRestartPrompt(checkpoint: Checkpoint, phasePrompt: string): string {
  return `${renderCheckpoint(checkpoint)}\n\n---\n\n${phasePrompt}`;
}
