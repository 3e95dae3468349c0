/** Versioned journals: older lines (no `v`) read, a newer journal is named, not misread; the new events fold. */
import { describe, expect, it } from 'vitest';
import { foldRun, journalVersionOf, newerJournalNote, refuseNewerJournal, type JournalEvent, type NewJournalEvent } from '../../src/state/index.js';
import { JOURNAL_VERSION } from '../../src/state/events.js';
import { StateError } from '../../src/errors/index.js';

function stamp(events: NewJournalEvent[], v?: number): JournalEvent[] {
  return events.map((event, i) => ({ ...event, ...(v === undefined ? {} : { v }), pid: 1, ts: new Date(Date.parse('2026-11-23T10:00:00Z') + i * 1000).toISOString() }) as JournalEvent);
}

const started: NewJournalEvent = { type: 'run_started', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} };

describe('journalVersionOf', () => {
  it('a journal from before versioning (no v) reads as version 1 and folds as before', () => {
    const events = stamp([started, { type: 'phase_started', phaseId: '1', title: 'One' }, { type: 'phase_ended', phaseId: '1', status: 'completed' }]);
    expect(journalVersionOf(events)).toBe(1);
    expect(foldRun(events)?.phases['1']?.status).toBe('completed');
    expect(newerJournalNote('r1', journalVersionOf(events))).toBeUndefined();
  });

  it('the highest v among the lines counts', () => {
    const events = [...stamp([started], JOURNAL_VERSION), ...stamp([{ type: 'phase_started', phaseId: '1', title: 'One' }], JOURNAL_VERSION + 1)];
    expect(journalVersionOf(events)).toBe(JOURNAL_VERSION + 1);
  });

  it('a newer journal is named in one line, and continuing from it is refused with exit 3', () => {
    const note = newerJournalNote('r9', JOURNAL_VERSION + 1);
    expect(note).toBe(`run r9 was recorded by a newer debussy (journal version ${JOURNAL_VERSION + 1}; this one reads up to ${JOURNAL_VERSION}): what it recorded cannot be carried over (completed phases, checkpoints, counters)`);
    expect(() => refuseNewerJournal('r9', JOURNAL_VERSION + 1, 'plans/x/MASTER_PLAN.md')).toThrow(StateError);
    try {
      refuseNewerJournal('r9', JOURNAL_VERSION + 1, 'plans/x/MASTER_PLAN.md');
    } catch (error) {
      expect((error as StateError).exitCode).toBe(3);
      expect((error as StateError).hint).toContain('debussy run plans/x/MASTER_PLAN.md --fresh');
    }
    expect(() => refuseNewerJournal('r1', JOURNAL_VERSION, 'p')).not.toThrow();
  });
});

describe('folding the verification events', () => {
  it('baseline, regression and plan-change events land on the phase and the run', () => {
    const fingerprint = { masterHash: 'm', phases: [{ id: '1', title: 'One', file: 'phase-1.md', fileHash: 'h', gates: [{ name: 't', command: 'true' }], dependsOn: [] }] };
    const gate = { command: 'c', exitCode: 1, durationMs: 1, outputTail: 'x' };
    const state = foldRun(stamp([
      { ...started, planFingerprint: fingerprint },
      { type: 'plan_changed', sinceRunId: 'r0', changes: [{ kind: 'added', id: '2', title: 'Two' }], reverify: [], kept: [] },
      { type: 'baseline_result', phaseId: '1', name: 't', passed: false, ...gate },
      { type: 'baseline_result', phaseId: '1', name: 't', passed: true, ...gate },
      { type: 'baseline_result', phaseId: '1', name: 'u', passed: false, ...gate },
      { type: 'regression_result', phaseId: '1', name: 't', passed: false, mode: 'end', suspects: ['2'], ...gate },
    ], 1));
    expect(state?.planFingerprint).toEqual(fingerprint);
    expect(state?.planChanged?.changes).toEqual([{ kind: 'added', id: '2', title: 'Two' }]);
    expect(state?.phases['1']?.baseline?.map((b) => [b.name, b.passed])).toEqual([['t', true], ['u', false]]);
    expect(state?.regressions?.map((r) => [r.phaseId, r.name, r.passed, r.suspects])).toEqual([['1', 't', false, ['2']]]);
  });

  it('a damaged fingerprint is left out, the rest of run_started folds', () => {
    const state = foldRun(stamp([{ ...started, planFingerprint: { masterHash: 3 } as never }], 1));
    expect(state?.planFingerprint).toBeUndefined();
    expect(state?.phaseOrder).toEqual(['1', '2']);
  });
});
