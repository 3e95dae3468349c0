/** Seals on debussy's own records: which lines a run's state believes, and which it only notes. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkSeal, eventsOfLines, foldRun, RunJournalProof, runSealContext, sealLine, type JournalEvent, type JournalKey, type NewJournalEvent,
} from '../../src/state/index.js';

const key: JournalKey = { ok: true, key: randomBytes(32), file: 'test' };
const otherKey: JournalKey = { ok: true, key: randomBytes(32), file: 'other' };
const noKey: JournalKey = { ok: false, file: 'k', problem: 'gone' };

let clock = Date.parse('2026-11-23T10:00:00Z');
const stamped = (event: NewJournalEvent): JournalEvent => ({ ...event, v: 1, pid: 1, ts: new Date((clock += 1000)).toISOString() });

/** The lines a run writes: each sealed for `runId` with its place among the run's records. */
function runLines(runId: string, events: NewJournalEvent[], sealKey: JournalKey = key): string[] {
  if (!sealKey.ok) throw new Error('no key');
  return events.map((event, seq) => sealLine(JSON.stringify({ ...stamped(event), seq }), runSealContext(runId), sealKey.key));
}

const started = (runId: string): NewJournalEvent => ({ type: 'run_started', runId, planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} });
const completed = (phaseId: string): NewJournalEvent => ({ type: 'phase_ended', phaseId, status: 'completed' });
const failed = (phaseId: string): NewJournalEvent => ({ type: 'phase_ended', phaseId, status: 'failed', reason: 'gate check failed' });
const gate = (phaseId: string, passed: boolean): NewJournalEvent => ({ type: 'gate_result', phaseId, name: 'check', command: 'true', passed, exitCode: passed ? 0 : 1, durationMs: 1, outputTail: '' });
const phaseStarted = (phaseId: string): NewJournalEvent => ({ type: 'phase_started', phaseId, title: `Phase ${phaseId}` });

function fold(runId: string, lines: string[], readKey: JournalKey = key) {
  const state = foldRun(eventsOfLines(lines, new RunJournalProof(runId, readKey)));
  if (!state) throw new Error('no state');
  return state;
}

describe('checkSeal', () => {
  const [line = ''] = runLines('r1', [completed('1')]);

  it('checks a line sealed for this run under this key', () => {
    expect(line).toMatch(/,"mac":"[A-Za-z0-9_-]{43}"\}$/);
    expect(checkSeal(line, runSealContext('r1'), key)).toBeUndefined();
  });

  it.each([
    ['no seal', JSON.stringify(stamped(completed('1'))), runSealContext('r1'), key, 'unsealed'],
    ['another run', line, runSealContext('r2'), key, 'bad_seal'],
    ["another machine's key", line, runSealContext('r1'), otherKey, 'bad_seal'],
    ['edited for another phase', line.replace('"phaseId":"1"', '"phaseId":"2"'), runSealContext('r1'), key, 'bad_seal'],
    ['a seal that is not one', line.replace(/"mac":"[^"]+"/, '"mac":"x"'), runSealContext('r1'), key, 'unsealed'],
    ['no key to check with', line, runSealContext('r1'), noKey, 'no_key'],
  ])('%s: %s', (_what, text, context, withKey, why) => {
    expect(checkSeal(text, context, withKey)).toBe(why);
  });
});

describe('a run journal folded with its proof', () => {
  it("believes the run's own sealed verdicts", () => {
    const state = fold('r1', runLines('r1', [started('r1'), phaseStarted('1'), gate('1', true), completed('1')]));
    expect(state.phases['1']).toMatchObject({ status: 'completed', gates: [{ passed: true }] });
    expect(state.unproven).toBeUndefined();
  });

  it('notes, and does not believe, a completion appended without a seal', () => {
    const lines = [...runLines('r1', [started('r1'), phaseStarted('1'), gate('1', false), failed('1')]), JSON.stringify(stamped(completed('1')))];
    const state = fold('r1', lines);
    expect(state.phases['1']?.status).toBe('failed');
    expect(state.phases['1']?.unprovenCompletion).toMatchObject({ why: 'unsealed' });
    expect(state.unproven).toMatchObject([{ type: 'phase_ended', phaseId: '1', status: 'completed', why: 'unsealed' }]);
  });

  it("a genuine completion copied from another run's journal is not this run's", () => {
    const [other] = runLines('r0', [completed('1')]).slice(-1);
    const state = fold('r1', [...runLines('r1', [started('r1'), phaseStarted('1'), failed('1')]), other ?? '']);
    expect(state.phases['1']?.status).toBe('failed');
    expect(state.phases['1']?.unprovenCompletion?.why).toBe('bad_seal');
  });

  it("a genuine completion of the run replayed for another phase does not complete it", () => {
    const lines = runLines('r1', [started('r1'), phaseStarted('1'), completed('1'), phaseStarted('2'), failed('2')]);
    const replayed = (lines[2] ?? '').replace('"phaseId":"1"', '"phaseId":"2"');
    const state = fold('r1', [...lines, replayed]);
    expect(state.phases['1']?.status).toBe('completed');
    expect(state.phases['2']).toMatchObject({ status: 'failed', unprovenCompletion: { why: 'bad_seal' } });
  });

  it('a genuine verdict repeated after a later one is a replay: the later one stands', () => {
    const lines = runLines('r1', [started('r1'), phaseStarted('1'), gate('1', false), gate('1', true), completed('1')]);
    const state = fold('r1', [...lines, lines[2] ?? '']);
    expect(state.phases['1']?.gates.map((g) => g.passed)).toEqual([false, true]);
    expect(state.unproven).toMatchObject([{ type: 'gate_result', gate: 'check', why: 'replayed' }]);
  });

  it('a later record the run sealed for the phase replaces an unproven completion', () => {
    const forged = JSON.stringify(stamped(completed('1')));
    const lines = runLines('r1', [started('r1'), phaseStarted('1')]);
    const later = runLines('r1', [started('r1'), phaseStarted('1'), failed('1'), phaseStarted('1')]).slice(2);
    const state = fold('r1', [...lines, forged, ...later]);
    expect(state.phases['1']?.status).toBe('in_progress');
    expect(state.phases['1']?.unprovenCompletion).toBeUndefined();
    expect(state.unproven).toHaveLength(1);
  });

  it('history and the agent\'s claims are read as written; a stand-in found in the file is dropped', () => {
    const claims = [
      JSON.stringify(stamped({ type: 'signal', phaseId: '1', status: 'completed', attemptId: 'a1' })),
      JSON.stringify(stamped({ type: 'progress', phaseId: '1', message: 'half way' })),
      JSON.stringify({ type: 'unproven', v: 1, ts: new Date().toISOString(), pid: 1, why: 'unsealed', record: completed('2') }),
    ];
    const state = fold('r1', [...runLines('r1', [started('r1'), phaseStarted('1')]), ...claims]);
    expect(state.phases['1']?.signals).toHaveLength(1);
    expect(state.phases['1']?.progress).toHaveLength(1);
    expect(state.unproven).toBeUndefined();
  });

  it('without the key nothing is proven: every verdict is only noted', () => {
    const state = fold('r1', runLines('r1', [started('r1'), phaseStarted('1'), gate('1', true), completed('1')]), noKey);
    expect(state.phases['1']).toMatchObject({ status: 'in_progress', gates: [], unprovenCompletion: { why: 'no_key' } });
  });

  it('a journal from before seals: its completions and gate verdicts are noted, the rest is read as before', () => {
    const lines = [started('r1'), phaseStarted('1'), gate('1', true), completed('1'), { type: 'run_ended', status: 'completed', exitCode: 0 } as NewJournalEvent]
      .map((event) => JSON.stringify(stamped(event)));
    const state = fold('r1', lines);
    expect(state.status).toBe('completed');
    expect(state.phases['1']).toMatchObject({ status: 'in_progress', unprovenCompletion: { why: 'unsealed' } });
    expect(state.unproven?.map((r) => r.type)).toEqual(['gate_result', 'phase_ended']);
  });
});
