/**
 * The Claude Code version debussy's tests run (package.json devDependencies, checked by
 * test/cli/doctor.test.ts); `debussy doctor` warns below it.
 */
export const TESTED_CLAUDE_VERSION = '2.1.197';
