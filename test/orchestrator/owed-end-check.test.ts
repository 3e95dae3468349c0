/** The end-of-run check a run owes from the run before it: a check cut short is pending, never passed. */
import { describe, expect, it } from 'vitest';
import { owedEndCheck } from '../../src/orchestrator/owed-end-check.js';
import { foldRun, type JournalEvent, type NewJournalEvent, type RunState } from '../../src/state/index.js';

function run(events: NewJournalEvent[]): RunState {
  const stamped = events.map((event, i): JournalEvent => ({ ...event, v: 1, pid: 1, ts: new Date(Date.parse('2026-11-23T10:00:00Z') + i * 1000).toISOString() }));
  const state = foldRun([
    { type: 'run_started', v: 1, pid: 1, ts: '2026-11-23T09:59:59.000Z', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1', '2', '3'], options: {} },
    ...stamped,
  ]);
  if (!state) throw new Error('no state');
  return state;
}

const completedBySession = (phaseId: string): NewJournalEvent[] => [
  { type: 'phase_started', phaseId, title: phaseId },
  { type: 'attempt_started', phaseId, attemptId: `a${phaseId}`, kind: 'initial', restart: 0, retry: 0 },
  { type: 'phase_ended', phaseId, status: 'completed' },
];
const alreadyComplete = (phaseId: string): NewJournalEvent => ({ type: 'phase_ended', phaseId, status: 'completed', reason: 'completed in run r0' });
const regression = (passed: boolean, suspects: string[] = ['2']): NewJournalEvent => ({
  type: 'regression_result', phaseId: '1', name: 'one', command: 'test -f one.txt', passed, exitCode: passed ? 0 : 1, durationMs: 1, outputTail: '', mode: 'end', suspects,
});
const ended = (status: 'completed' | 'failed' | 'interrupted', exitCode: number): NewJournalEvent => ({ type: 'run_ended', status, exitCode });
const finished: NewJournalEvent = { type: 'regression_check', stage: 'finished' };

describe('owedEndCheck', () => {
  it.each([
    ['no run before', undefined, { phases: [], regressions: [] }],
    ['a run whose check ran to its end and passed', run([alreadyComplete('1'), ...completedBySession('2'), regression(true), finished, ended('completed', 0)]), { phases: [], regressions: [] }],
    ['a run whose check ran to its end and failed: the regression, checked again', run([alreadyComplete('1'), ...completedBySession('2'), regression(false), finished, ended('failed', 1)]),
      { phases: [], regressions: [{ phaseId: '1', name: 'one', suspects: ['2'] }] }],
    ['Ctrl-C during the check, before any verdict: the phases it completed', run([alreadyComplete('1'), ...completedBySession('2'), ...completedBySession('3'), ended('interrupted', 130)]),
      { phases: ['2', '3'], regressions: [] }],
    ['kill -9 during the check, after a failing verdict: the phases and the regression', run([...completedBySession('1'), ...completedBySession('2'), regression(false)]),
      { phases: ['1', '2'], regressions: [{ phaseId: '1', name: 'one', suspects: ['2'] }] }],
    ['a check owed from before, cut short again: still owed', run([
      { type: 'regression_check', stage: 'pending', phases: ['2'], regressions: [{ phaseId: '1', name: 'one', suspects: ['2'] }] },
      alreadyComplete('1'), alreadyComplete('2'), ended('interrupted', 130),
    ]), { phases: ['2'], regressions: [{ phaseId: '1', name: 'one', suspects: ['2'] }] }],
    ['a regression owed from before and found fixed by a check that was then cut short: the later verdict wins', run([
      { type: 'regression_check', stage: 'pending', phases: [], regressions: [{ phaseId: '1', name: 'one', suspects: ['2'] }] },
      regression(false, ['3']), ended('interrupted', 130),
    ]), { phases: [], regressions: [{ phaseId: '1', name: 'one', suspects: ['3'] }] }],
    ['a completed run of an older debussy (no regression_check): nothing owed', run([...completedBySession('1'), ended('completed', 0)]), { phases: [], regressions: [] }],
    ['a failed run: the phases it completed are not checked yet', run([...completedBySession('1'), { type: 'phase_ended', phaseId: '2', status: 'failed' }, ended('failed', 1)]),
      { phases: ['1'], regressions: [] }],
  ] as const)('%s', (_what, prior, owed) => {
    expect(owedEndCheck(prior)).toEqual(owed);
  });
});
