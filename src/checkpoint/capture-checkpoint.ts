/** Gathers a checkpoint from the journal (progress, commits) and git (changed files, diff). */
import { changedFilesSince, diffSummary } from '../git/index.js';
import type { PhaseState } from '../state/index.js';
import type { Checkpoint } from './checkpoint.js';

export interface CaptureInput {
  root: string;
  phase: PhaseState;
  phaseTitle: string;
  /** HEAD when the phase started; undefined in a repo with no commits. */
  baseSha: string | undefined;
  useGit: boolean;
  sessionNumber: number;
  reason: string;
  lastActivity: string[];
}

export async function captureCheckpoint(input: CaptureInput): Promise<Checkpoint> {
  const [changedFiles, summary] = input.useGit
    ? await Promise.all([changedFilesSince(input.root, input.baseSha), diffSummary(input.root, input.baseSha, 40)])
    : [[], ''];
  return {
    phaseId: input.phase.id,
    phaseTitle: input.phaseTitle,
    sessionNumber: input.sessionNumber,
    reason: input.reason,
    progress: input.phase.progress.map((entry) => entry.message),
    changedFiles,
    diffSummary: summary,
    lastActivity: input.lastActivity,
    commits: input.phase.commits.map((commit) => `${commit.sha.slice(0, 10)} ${commit.message.split('\n')[0] ?? ''}`),
  };
}
