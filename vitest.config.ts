import { defineConfig } from 'vitest/config';

/**
 * The tests that run the real binaries (debussy's bin/debussy.js, which runs dist/, the claude
 * CLI, npm): they need dist/ built, which the `e2e` project's global setup does once per change of
 * the sources. Everything else is the `unit` project (`npm run test:unit`), which builds nothing.
 * test/package/test-projects.test.ts checks that no test reaching a binary is left in `unit`.
 */
export const E2E_TESTS = [
  'test/e2e/**',
  'test/e2e-output/**',
  'test/cli/**',
  'test/cli-getting-started/**',
  'test/package/**',
  'test/demo/**',
  'test/**/*.claude.test.ts',
  'test/harness/claude-*.test.ts',
  'test/harness/codex-*.test.ts',
  'test/agent/codex/codex-session.test.ts',
  'test/harness/gemini-*.test.ts',
  'test/harness/support.test.ts',
  'test/agent-signals/signal-inbox.test.ts',
  'test/config/json-schema.test.ts',
  'test/doctor/doctor-checks.test.ts',
  'test/git/changes.test.ts',
  'test/install/package-files.test.ts',
  'test/plan/audit-cli.test.ts',
  'test/plan/foreign-format.test.ts',
  'test/plan-import/plan-import-cli.test.ts',
  'test/plan-import/readers.test.ts',
  'test/ci-workflow/ci-github-command.test.ts',
  'test/ci-workflow/run-workflow-locally.test.ts',
  'test/queue/queue-run.test.ts',
  'test/queue/queue-cli.test.ts',
  'test/replay/replay-projection.test.ts',
  'test/scaffold/gitignore.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The end-to-end files run real agent processes and wait on them (scripted model latency,
    // sleeps, timeouts): with two files at a time the two cores stood idle 17% of a full run, with
    // three 5% (measured: 661 s, then 553 s of vitest for the same suite, the CPU the same). Four,
    // once files shared workers (below), took 362 s instead of 420 s, but the extra load made
    // timing-bound tests of the real claude flaky: 3 of 5 full runs failed one (2026-11-27). With
    // fewer real-binary runs since, four took 311 s against three's 327 s: too little for the risk.
    maxWorkers: 3,
    // As many from the start: with fewer, vitest's pool ends an idle extra worker while a file is
    // still queued on it ("Terminating worker thread", rc 1) when files share workers (below).
    minWorkers: 3,
    // A worker runs file after file, importing the modules once: a fresh process per file cost
    // more CPU than the tests (unit: 183 s of CPU, then 107 s). Files restore what they change
    // (process.env, the directory, servers, children) in their own after-hooks.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E_TESTS } },
      { extends: true, test: { name: 'e2e', include: E2E_TESTS.map((glob) => (glob.endsWith('**') ? `${glob}/*.test.ts` : glob)), globalSetup: ['test/global-setup.ts'] } },
    ],
  },
});
