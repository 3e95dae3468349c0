/** Versioned journals: older lines (no `v`) read, a newer journal is named, not misread; the new events fold. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldRun, newerJournalNote, readJournal, refuseNewerJournal, type JournalEvent, type NewJournalEvent } from '../../src/state/index.js';
import { JOURNAL_VERSION } from '../../src/state/events.js';
import { StateError } from '../../src/errors/index.js';
import { makeTempDir, removeDir } from './support.js';

function stamp(events: NewJournalEvent[], v?: number): JournalEvent[] {
  return events.map((event, i) => ({ ...event, ...(v === undefined ? {} : { v }), pid: 1, ts: new Date(Date.parse('2026-11-23T10:00:00Z') + i * 1000).toISOString() }) as JournalEvent);
}

const started: NewJournalEvent = { type: 'run_started', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} };

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('journal-version');
});
afterEach(async () => removeDir(dir));

/** The journal of these lines, as readJournal reads it back. */
async function readBack(lines: unknown[]) {
  const file = join(dir, 'journal.ndjson');
  await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return readJournal(file);
}

describe('the version of a journal', () => {
  it('a journal from before versioning (no v) reads as version 1 and folds as before', async () => {
    const read = await readBack(stamp([started, { type: 'phase_started', phaseId: '1', title: 'One' }, { type: 'phase_ended', phaseId: '1', status: 'completed' }]));
    expect(read.version).toBe(1);
    expect(read.events.map((event) => event.v)).toEqual([1, 1, 1]);
    expect(foldRun(read.events)?.phases['1']?.status).toBe('completed');
    expect(newerJournalNote('r1', read.version)).toBeUndefined();
  });

  it('the highest v among the lines counts, lines this debussy cannot read included', async () => {
    const newer = JOURNAL_VERSION + 1;
    const read = await readBack([
      ...stamp([started], JOURNAL_VERSION),
      // A newer debussy's: a type this one does not know, and a known type in a shape it cannot read.
      { type: 'hologram_projected', v: newer, ts: 't', pid: 1 },
      { type: 'phase_started', v: newer, ts: 't', pid: 1, phase: { id: '1' } },
    ]);
    expect(read.version).toBe(newer);
    expect(read.events.map((event) => event.type)).toEqual(['run_started']);
    expect(read.badLines).toEqual([{ line: 3, text: expect.stringContaining('"phase_started"') as string, problem: 'phase_started: phaseId: Invalid key: Expected "phaseId" but received undefined' }]);
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
});
