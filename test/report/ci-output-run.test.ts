/**
 * What `debussy run` prints for logs and programs, from a whole run in process (the orchestrator
 * and the in-process agent) through the reporters the run command builds for that output
 * (loop-output.ts's commandOutput): CI=true's timestamped lines without an escape sequence, and
 * --json's NDJSON from run_started to run_summary. The GitHub Actions mode, chosen from the
 * environment of the real binary with its step summary file, stays in test/e2e-output/ci-output.
 */
import { describe, expect, it } from 'vitest';
import { LoopProject, done, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { commandOutput } from '../support/loop-output.js';

useLoopStateDir();

// eslint-disable-next-line no-control-regex
const ESCAPE = /[\x1b\x9b]/;

/**
 * A phase that crosses the threshold (165,000 of 200,000 tokens: 82.5%) and restarts once. The
 * agent writes colour codes in its text, and a failing command prints some too: the output must
 * not pass them on.
 */
const restarting = [
  script(
    { call: 20_000 }, { say: 'Running the \u001b[32mgreen\u001b[0m tests\u001b[2K now.' },
    { tool: 'Bash', input: { command: 'make test' }, result: '\u001b[31mred failure\u001b[0m', isError: true },
    { progress: 'colours checked' },
    { call: 165_000 }, touch('part1.txt', 'part one\n'),
    touch('after-crossing.txt'), success,
  ),
  script({ call: 30_000 }, done, { say: 'Phase finished.' }, success),
];

async function restartingRun(flags: { json?: boolean }, env: Record<string, string>): Promise<string> {
  const project = LoopProject.create([{ id: '1', title: 'Colourful' }], { git: true });
  try {
    const output = await commandOutput(flags, env);
    const out = await project.run(restarting, { reporter: output.reporter });
    expect(out.exitCode, output.written()).toBe(0);
    return output.written();
  } finally {
    project.cleanup();
  }
}

describe.concurrent('output for logs and programs', () => {
  it('CI=true: one timestamped line per event, no escape sequence anywhere, the summary at the end', async () => {
    const stdout = await restartingRun({}, { CI: 'true' });
    expect(stdout).not.toMatch(ESCAPE);
    const lines = stdout.split('\n');
    const summaryAt = lines.findIndex((l) => /^phase +status +attempts/.test(l));
    expect(summaryAt).toBeGreaterThan(0);
    // Every line before the blank line and the table is an event line with its time.
    for (const line of lines.slice(0, summaryAt - 1)) expect(line).toMatch(/^\d\d:\d\d:\d\d /);
    expect(stdout).toMatch(/ {3}1 \[ctx \d+%\] Running the green tests now\.\n/);
    expect(stdout).toMatch(/ {3}1 \[ctx \d+%\] tool error: .*red failure/);
    expect(stdout).toMatch(/warning: phase 1: restart 1\/3 from a checkpoint/);
    expect(stdout).toMatch(/\n1 +completed +2 +1 +8\d%/);
    expect(stdout).not.toContain('To resume');
  });

  it('--json: every stdout line is a JSON object, from run_started to run_summary', async () => {
    const stdout = await restartingRun({ json: true }, { FORCE_COLOR: '1' });
    expect(stdout.endsWith('\n')).toBe(true);
    const records = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; ts: string } & Record<string, unknown>);
    for (const record of records) expect(Number.isFinite(Date.parse(record.ts)), JSON.stringify(record)).toBe(true);
    const types = records.map((r) => r.type);
    expect(types[0]).toBe('run_started');
    expect(types[1]).toBe('run_plan');
    expect(types.at(-1)).toBe('run_summary');
    expect(types).toEqual(expect.arrayContaining(['phase_started', 'session_started', 'context_crossed', 'commit', 'restart', 'session_ended', 'phase_ended', 'run_ended', 'agent']));
    const toolStart = records.find((r) => r.type === 'agent' && r.event === 'tool_start' && r.name === 'Write');
    expect(toolStart).toMatchObject({ phaseId: '1', summary: 'Write: part1.txt', context: { contextWindow: 200_000 } });
    expect(records.find((r) => r.type === 'agent' && r.event === 'tool_error')?.text).toContain('red failure');
    // The agent's own calls (its debussy progress and done, answered by the run's inbox) reach the follower.
    expect(records.find((r) => r.type === 'progress')).toMatchObject({ phaseId: '1', message: 'colours checked' });
    expect(records.find((r) => r.type === 'signal')).toMatchObject({ phaseId: '1', status: 'completed' });
    expect(types.indexOf('signal')).toBeLessThan(types.lastIndexOf('phase_ended'));
    expect(records.at(-1)).toMatchObject({ status: 'completed', exitCode: 0, resumeCommand: null, totals: { restarts: 1 }, phases: [{ id: '1', status: 'completed', restarts: 1 }] });
  });
});
