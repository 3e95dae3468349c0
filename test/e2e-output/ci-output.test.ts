/**
 * Issue 6 acceptance for logs and machines, through the built binary and the real claude CLI: the
 * GitHub Actions mode, chosen from the environment, with groups, annotations and a step summary
 * file. CI=true's plain lines and --json's NDJSON from a run are shown in process
 * (test/report/ci-output-run.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject } from '../e2e/e2e-project.js';
import { bash, scriptBySession, write } from '../e2e/session-script.js';
import { outputEnv, runDebussy } from './output-env.js';

const CROSSING_USAGE = { input_tokens: 165_000 }; // 82.5% of the 200,000-token window
// eslint-disable-next-line no-control-regex
const ESCAPE = /[\x1b\x9b]/;

/**
 * A phase that crosses the threshold and restarts once. The agent writes colour codes in its text,
 * and a failing command prints some too: the output must not pass them on.
 */
function restartingProject(): Promise<E2EProject> {
  return E2EProject.create({
    phases: [{ id: '1', title: 'Colourful' }],
    script: scriptBySession({
      fresh: [
        bash("printf '\\033[31mred failure\\033[0m\\n'; exit 3", { text: 'Running the \u001b[32mgreen\u001b[0m tests\u001b[2K now.' }),
        bash('debussy progress --phase 1 --message "colours checked"'),
        write('part1.txt', 'part one\n', { usage: CROSSING_USAGE }),
        bash('touch after-crossing.txt', { latencyMs: 1500 }),
      ],
      checkpoint: [bash('debussy done --phase 1'), { kind: 'text', text: 'Phase finished.' }],
    }),
  });
}

let project: E2EProject | undefined;
let tempDir: string | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});

describe('output for logs and programs', () => {
  it('GITHUB_ACTIONS=true: a group per phase, warnings for the crossing and the restart, and the step summary file', async () => {
    project = await restartingProject();
    tempDir = mkdtempSync(path.join(os.tmpdir(), 'debussy-gha-'));
    const summaryFile = path.join(tempDir, 'step-summary.md');
    const result = await runDebussy(project, ['run', project.planArg], outputEnv(project, { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile }));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('::group::'))).toEqual(['::group::Phase 1: Colourful']);
    expect(lines.indexOf('::endgroup::')).toBeGreaterThan(lines.findIndex((l) => /phase 1 completed$/.test(l)));
    expect(lines.filter((l) => l.startsWith('::warning '))).toEqual([
      expect.stringMatching(/^::warning title=Phase 1 crossed the context threshold::context at 8\d\.\d%25 of 200,000 tokens crossed the 80%25 threshold: stopping the session$/),
      expect.stringMatching(/^::warning title=Phase 1 restarted \(1\/3\)::restarted from a checkpoint: /),
    ]);
    expect(lines.filter((l) => l.startsWith('::error'))).toEqual([]);
    expect(result.stdout).not.toMatch(ESCAPE);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('### debussy: E2E Plan: ✅ completed');
    expect(summary).toMatch(/\| 1 \| Colourful \| ✅ completed \| 2 \| 1 \| 8\d% \|/);
    expect(summary).toMatch(/\| \*\*Total\*\* \| \| \*\*completed\*\* \| 2 \| 1 \|/);
  });
});
