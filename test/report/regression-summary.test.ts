/** The end table, the step summary and run_summary show the regression gates a run ran again. */
import { describe, expect, it } from 'vitest';
import { renderMarkdownSummary, renderRunSummary, summarizeRun } from '../../src/report/run-summary.js';
import { foldRun, type JournalEvent, type NewJournalEvent, type RunState } from '../../src/state/index.js';

function stamp(events: NewJournalEvent[]): JournalEvent[] {
  return events.map((event, i) => ({ ...event, v: 1, pid: 1, ts: new Date(Date.parse('2026-11-23T10:00:00Z') + i * 1000).toISOString() }));
}
const result = (name: string, passed: boolean, extra: Partial<NewJournalEvent> = {}): NewJournalEvent =>
  ({ type: 'regression_result', phaseId: '1', name, command: `run ${name}`, passed, exitCode: passed ? 0 : 1, durationMs: 3, outputTail: '', mode: 'end', ...extra }) as NewJournalEvent;

function runWith(events: NewJournalEvent[]): RunState {
  return foldRun(stamp([{ type: 'run_started', runId: 'r', planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} }, ...events, { type: 'run_ended', status: 'failed', exitCode: 1 }])) as RunState;
}

describe('regressions in the run summary', () => {
  it('no regression gates ran: nothing under the table, an empty list in run_summary', () => {
    const state = runWith([]);
    expect(renderRunSummary(state)).not.toContain('regression');
    expect(summarizeRun(state).regressions).toEqual([]);
  });

  it('counts the passes and names each failure with when and the phases since', () => {
    const state = runWith([result('build', true), result('tests', false, { suspects: ['2', '3'] }), result('lint', false, { mode: 'each', afterPhaseId: '2' })]);
    const text = renderRunSummary(state);
    expect(text).toContain('regression gates: 1 of 3 passed');
    expect(text).toContain('  gate tests of phase 1 failed at the end of the run (phases since: 2, 3)');
    expect(text).toContain('  gate lint of phase 1 failed after phase 2');
    expect(summarizeRun(state).regressions[1]).toEqual({ phaseId: '1', name: 'tests', command: 'run tests', passed: false, mode: 'end', afterPhaseId: undefined, suspects: ['2', '3'] });
    const markdown = renderMarkdownSummary(state, undefined);
    expect(markdown).toContain('regression gates: 1 of 3 passed');
    expect(markdown).toContain('- gate tests of phase 1 failed at the end of the run (phases since: 2, 3)');
  });
});

describe('incomplete session logs in the run summary', () => {
  const ended = (phaseId: string, sessionIndex: number, incompleteLogs?: { path: string; error: string }[]): NewJournalEvent =>
    ({ type: 'session_ended', phaseId, attemptId: `a${phaseId}`, sessionIndex, outcome: 'completed', exitCode: 0, signal: null, peakContextTokens: 0, peakContextPercent: 0, contextWindow: 0, toolCalls: 0, costUsd: 0, inputTokens: 0, outputTokens: 0, durationMs: 1, ...(incompleteLogs ? { incompleteLogs } : {}) });
  const FULL = 'ENOSPC: no space left on device';

  it('none: nothing under the table, an empty list in run_summary', () => {
    const state = runWith([ended('1', 1)]);
    expect(renderRunSummary(state)).not.toContain('incomplete');
    expect(summarizeRun(state).incompleteLogs).toEqual([]);
  });

  it('names each, grouped by why, in the table, the step summary and run_summary', () => {
    const state = runWith([
      ended('1', 1, [{ path: 'logs/1-01.stream.ndjson', error: FULL }]),
      ended('2', 1, [{ path: 'logs/2-01.stream.ndjson', error: FULL }, { path: 'logs/2-01.log', error: 'EIO: i/o error' }]),
    ]);
    const line = `incomplete session logs (could not be written): logs/1-01.stream.ndjson, logs/2-01.stream.ndjson (${FULL}); logs/2-01.log (EIO: i/o error)`;
    expect(renderRunSummary(state)).toContain(line);
    expect(renderMarkdownSummary(state, undefined)).toContain(line);
    expect(summarizeRun(state).incompleteLogs).toEqual([
      { phaseId: '1', path: 'logs/1-01.stream.ndjson', error: FULL },
      { phaseId: '2', path: 'logs/2-01.stream.ndjson', error: FULL },
      { phaseId: '2', path: 'logs/2-01.log', error: 'EIO: i/o error' },
    ]);
  });
});

describe('GitHub annotations for verification events', () => {
  it('a failed regression gate is an error annotation; a passing one none; a plan change a warning', async () => {
    const { annotationFor } = await import('../../src/report/github-actions.js');
    const [failed, passed] = stamp([result('tests', false, { mode: 'each', afterPhaseId: '2' }), result('build', true)]);
    expect(annotationFor(failed as JournalEvent)).toEqual({ level: 'error', title: 'Regression: gate tests of phase 1', message: 'fails after phase 2 (exit 1): run tests' });
    expect(annotationFor(passed as JournalEvent)).toBeUndefined();
    const [changed] = stamp([{ type: 'plan_changed', sinceRunId: 'r0', changes: [{ kind: 'added', id: '3', title: 'Three' }], reverify: [], kept: [] }]);
    expect(annotationFor(changed as JournalEvent)).toEqual({ level: 'warning', title: 'The plan changed since run r0', message: 'phase 3 added (Three)' });
  });
});

describe('the live view while verification gates run', () => {
  it('shows the baseline, re-verification and regression gates as the activity', async () => {
    const { applyJournalEvent, INITIAL_LIVE_STATE } = await import('../../src/report/live-state.js');
    const gate = { phaseId: '1', name: 'tests', command: 'npm test', exitCode: 1, durationMs: 1, outputTail: '' };
    const [baseline, reverify, regression] = stamp([
      { type: 'baseline_result', passed: false, ...gate },
      { type: 'baseline_result', passed: true, reverify: true, ...gate },
      result('build', false),
    ]);
    expect(applyJournalEvent(INITIAL_LIVE_STATE, baseline as JournalEvent, 0).activity).toBe('baseline: gate tests fails');
    expect(applyJournalEvent(INITIAL_LIVE_STATE, reverify as JournalEvent, 0).activity).toBe('re-verification: gate tests passes');
    expect(applyJournalEvent(INITIAL_LIVE_STATE, regression as JournalEvent, 0).activity).toBe('regression check: gate build of phase 1 FAILS');
  });
});
