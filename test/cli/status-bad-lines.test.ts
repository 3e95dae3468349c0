/**
 * A journal line debussy cannot read (not JSON, or an event whose fields do not fit its schema:
 * state/events.ts) is left out; `debussy status` says how many and why the first, and counts them
 * in --json. Through the built debussy, on a journal written here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debussy, expectNoStack, initRepo, tempDir } from './cli-harness.js';

let work: { dir: string; cleanup(): void };
beforeEach(() => {
  work = tempDir('debussy-bad-lines-');
  initRepo(work.dir);
});
afterEach(() => work.cleanup());

const RUN = '20261127-101500-ab12';
const stamp = (second: number) => ({ v: 1, ts: `2026-11-27T10:15:${String(second).padStart(2, '0')}.000Z`, pid: 4242 });

function writeJournal(lines: string[]): void {
  const dir = path.join(work.dir, '.debussy/runs', RUN);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'journal.ndjson'), lines.map((line) => `${line}\n`).join(''));
}

const started = JSON.stringify({ type: 'run_started', runId: RUN, planPath: 'plans/x/MASTER_PLAN.md', planName: 'X', phaseIds: ['1'], options: {}, ...stamp(0) });
const phaseStarted = JSON.stringify({ type: 'phase_started', phaseId: '1', title: 'One', ...stamp(1) });
const misfit = JSON.stringify({ type: 'session_ended', phaseId: '1', attemptId: 'a', sessionIndex: 1, outcome: 'stopped', exitCode: 0, signal: null, peakContextTokens: 1, peakContextPercent: 1, contextWindow: 1, toolCalls: 1, costUsd: '0.5', inputTokens: 1, outputTokens: 1, durationMs: 1, ...stamp(2) });

describe('debussy status on a journal with lines it cannot read', () => {
  it('one event that does not fit: said in one line with the field, counted in --json; the rest shows', async () => {
    writeJournal([started, phaseStarted, misfit, JSON.stringify({ type: 'from_a_newer_debussy', ...stamp(3) })]);
    const status = await debussy(['status'], { cwd: work.dir });
    expectNoStack(status);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Run ${RUN}: X`);
    expect(status.stdout).toContain('Note: 1 line of the journal could not be read and was left out (line 3: session_ended: costUsd: Invalid type: Expected number but received "0.5").');
    expect(status.stdout).toMatch(/1\s+in_progress/);
    const json = JSON.parse((await debussy(['status', '--json'], { cwd: work.dir })).stdout) as { badLines: number; run: { phases: Record<string, { sessions: unknown[] }> } };
    expect(json.badLines).toBe(1);
    expect(json.run.phases['1']?.sessions).toEqual([]);
  });

  it('several: counted, the first named; a line that is not JSON says so', async () => {
    writeJournal([started, 'not json at all', phaseStarted, misfit]);
    const status = await debussy(['status'], { cwd: work.dir });
    expect(status.stdout).toContain('Note: 2 lines of the journal could not be read and were left out (the first, line 2: not JSON).');
  });

  it('a journal it reads whole: no note', async () => {
    writeJournal([started, phaseStarted]);
    const status = await debussy(['status'], { cwd: work.dir });
    expect(status.stdout).not.toContain('could not be read');
  });
});
