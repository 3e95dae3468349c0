/**
 * Issue 6 acceptance for logs and machines, through the built binary and the real claude CLI:
 * CI output without escape sequences, --json as NDJSON only, and the GitHub Actions mode with
 * groups, annotations and a step summary file.
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
  it('CI=true: one timestamped line per event, no escape sequence anywhere, the summary at the end', async () => {
    project = await restartingProject();
    const result = await runDebussy(project, ['run', project.planArg], outputEnv(project, { CI: 'true' }));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(ESCAPE);
    const lines = result.stdout.split('\n');
    const summaryAt = lines.findIndex((l) => /^phase +status +attempts/.test(l));
    expect(summaryAt).toBeGreaterThan(0);
    // Every line before the blank line and the table is an event line with its time.
    for (const line of lines.slice(0, summaryAt - 1)) expect(line).toMatch(/^\d\d:\d\d:\d\d /);
    expect(result.stdout).toMatch(/ {3}1 \[ctx \d+%\] Running the green tests now\.\n/);
    expect(result.stdout).toMatch(/ {3}1 \[ctx \d+%\] tool error: .*red failure/);
    expect(result.stdout).toMatch(/warning: phase 1: restart 1\/3 from a checkpoint/);
    expect(result.stdout).toMatch(/\n1 +completed +2 +1 +8\d%/);
    expect(result.stdout).not.toContain('To resume');
  });

  it('--json: every stdout line is a JSON object, from run_started to run_summary', async () => {
    project = await restartingProject();
    const result = await runDebussy(project, ['run', project.planArg, '--json'], outputEnv(project, { FORCE_COLOR: '1' }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.endsWith('\n')).toBe(true);
    const records = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; ts: string } & Record<string, unknown>);
    for (const record of records) expect(Number.isFinite(Date.parse(record.ts)), JSON.stringify(record)).toBe(true);
    const types = records.map((r) => r.type);
    expect(types[0]).toBe('run_started');
    expect(types[1]).toBe('run_plan');
    expect(types.at(-1)).toBe('run_summary');
    expect(types).toEqual(expect.arrayContaining(['phase_started', 'session_started', 'context_crossed', 'commit', 'restart', 'session_ended', 'phase_ended', 'run_ended', 'agent']));
    const toolStart = records.find((r) => r.type === 'agent' && r.event === 'tool_start' && r.name === 'Write');
    expect(toolStart).toMatchObject({ phaseId: '1', summary: 'Write: part1.txt', context: { contextWindow: 200_000 } });
    expect(records.find((r) => r.type === 'agent' && r.event === 'tool_error')?.text).toContain('red failure');
    // The agent's own calls reach the follower, though the agent's debussy writes them to the journal.
    expect(records.find((r) => r.type === 'progress')).toMatchObject({ phaseId: '1', message: 'colours checked' });
    expect(records.find((r) => r.type === 'signal')).toMatchObject({ phaseId: '1', status: 'completed' });
    expect(types.indexOf('signal')).toBeLessThan(types.lastIndexOf('phase_ended'));
    expect(records.at(-1)).toMatchObject({ status: 'completed', exitCode: 0, resumeCommand: null, totals: { restarts: 1 }, phases: [{ id: '1', status: 'completed', restarts: 1 }] });
  });

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
