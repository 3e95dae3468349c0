import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

/**
 * The files that take longest, longest first (measured in a full run, 2026-11-27): they start first.
 * vitest orders a run by the durations it cached from the last one, and without that cache (a clean
 * clone, as in CI) by file size, which put a 31 s file last: it ran alone at the end of the e2e
 * project, whose end the unit project waits for, with the other workers idle. In a full run on this
 * machine the files below take 15-52 s each; what is not listed keeps vitest's order.
 */
export const LONGEST_FIRST = [
  'test/queue/queue-run.test.ts',
  'test/package/git-install.test.ts',
  'test/e2e/parallel-phases.test.ts',
  'test/e2e/restart-loop.test.ts',
  'test/e2e/gemini-run.test.ts',
  'test/e2e/codex-run.test.ts',
  'test/demo/demo.test.ts',
  'test/e2e/context-truth.test.ts',
  'test/ci-workflow/run-workflow-locally.test.ts',
  'test/e2e/session-settings.test.ts',
  'test/e2e/portable-processes.test.ts',
  'test/agent/claude/agent-session.test.ts',
  'test/e2e/live-status.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(path.relative(spec.project.config.root, spec.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the files not listed keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E_TESTS } },
      { extends: true, test: { name: 'e2e', include: E2E_TESTS.map((glob) => (glob.endsWith('**') ? `${glob}/*.test.ts` : glob)), globalSetup: ['test/global-setup.ts'] } },
    ],
  },
});
