export { isGitRepo, gitTopLevel, headSha } from './repo.js';
export { workingTreeStatus, hasTrackedChanges, parsePorcelainV1, type WorkingTreeStatus } from './status.js';
export { commitAll, type CommitResult } from './commit.js';
export { changedFilesSince, commitsSince } from './changes.js';
export { diffSummary, formatDiffSummary, type FileChange } from './diff-summary.js';
export { buildCommitMessage, PHASE_TRAILER, type CommitMessageInput } from './commit-message.js';
export { DEBUSSY_RUN_DATA_PATHS } from './run-data.js';
