/**
 * The Claude Code versions debussy is tested with. The newest is the one the test suite runs
 * (package.json devDependencies, checked by test/cli/doctor.test.ts); the oldest is the oldest
 * whose recorded streams the parser tests still read (test/fixtures/streams/<version>/).
 * `debussy doctor` names them and warns below the oldest.
 */
export const TESTED_CLAUDE_VERSION = '2.1.332';
export const OLDEST_TESTED_CLAUDE_VERSION = '2.1.197';

/** "2.1.332 (the test suite's) and 2.1.197 (recorded streams)", for doctor's lines. */
export const TESTED_CLAUDE_VERSIONS_TEXT = `${TESTED_CLAUDE_VERSION} (the test suite runs it) and ${OLDEST_TESTED_CLAUDE_VERSION} (its recorded streams)`;
