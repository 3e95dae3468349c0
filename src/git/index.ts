export { isGitRepo, gitTopLevel, headSha } from './repo.js';
export { workingTreeStatus, hasTrackedChanges, parsePorcelainV1, type WorkingTreeStatus } from './status.js';
export { commitPaths, type CommitResult } from './commit.js';
export { decideCommitScope, userChangesAtPhaseStart, userChangesAtResume, type CommitScope, type LeftOut, type LeftOutReason, type UserChange, type UserChangeOrigin } from './commit-scope.js';
export { looksLikeCredentialFile } from './credential-files.js';
export { changedFilesSince, commitsSince } from './changes.js';
export { diffSummary, formatDiffSummary, type FileChange } from './diff-summary.js';
export { buildCommitMessage, PHASE_TRAILER, type CommitMessageInput } from './commit-message.js';
export { DEBUSSY_RUN_DATA_PATHS } from './run-data.js';
