/**
 * Journal lines as readers take them (state/events.ts, journal.ts): lines written by older debussy
 * versions still read (each field added since is optional or has a default), a line of a known type
 * whose fields do not fit is left out as a bad line saying which field, a type this version does
 * not know is passed over in silence. The old lines below are shaped as `git log -p
 * src/state/events.ts` shows the events were written then.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldRun, journalEventOf, journalPath, loadRun, NotARecord, readJournal, type WrittenJournalEvent } from '../../src/state/index.js';
import { makeTempDir, removeDir } from './support.js';

const at = (second: number) => `2026-11-21T21:45:${String(second).padStart(2, '0')}.000Z`;
const line = (second: number, fields: Record<string, unknown>) => ({ ...fields, v: 1, ts: at(second), pid: 4242 });

/** Lines as the first journals held them (2026-11-21..23): no seals, no fields added since. */
const OLD_LINES = {
  runStarted: line(0, { type: 'run_started', runId: 'r1', planPath: '/p/MASTER_PLAN.md', planName: 'Demo', phaseIds: ['1', '2'], options: { context_threshold: 80, max_restarts: 3, max_retries: 2 } }),
  phaseStarted: line(1, { type: 'phase_started', phaseId: '1', title: 'Setup' }),
  sessionStarted: line(2, { type: 'session_started', phaseId: '1', attemptId: 'a1', sessionIndex: 0, agentPid: 111, agentStartTime: 999, model: 'sonnet', promptChars: 5000, logPath: '/p/.debussy/runs/r1/sessions/1-00.log' }),
  contextCrossed: line(3, { type: 'context_crossed', phaseId: '1', sessionIndex: 0, trigger: 'context', usedTokens: 166_000, contextWindow: 0, percent: 0, threshold: 80, toolCalls: 40, stopping: true }),
  sessionEnded: line(4, {
    type: 'session_ended', phaseId: '1', attemptId: 'a1', sessionIndex: 0, outcome: 'stopped', exitCode: null, signal: 'SIGINT',
    peakContextTokens: 168_000, peakContextPercent: 84, contextWindow: 200_000, toolCalls: 41, costUsd: 0.5, inputTokens: 1000, outputTokens: 200, durationMs: 60_000, costUnknown: true,
  }),
  uncommittedAtStop: line(5, { type: 'uncommitted_at_stop', phaseId: '1', paths: ['src/a.ts'] }),
  gateResult: line(6, { type: 'gate_result', phaseId: '1', attemptId: 'a1', name: 'tests', command: 'npm test', passed: true, exitCode: 0, durationMs: 1200, outputTail: 'ok' }),
  phaseEnded: line(7, { type: 'phase_ended', phaseId: '1', status: 'completed' }),
  planChanged: line(8, { type: 'plan_changed', sinceRunId: 'r0', changes: [{ kind: 'added', id: '2', title: 'Two' }], reverify: [], trusted: false }),
  noVersion: { type: 'progress', phaseId: '2', message: 'before versioning', ts: at(9), pid: 4242 },
};

describe('a line written by an older debussy', () => {
  it.each(Object.entries(OLD_LINES))('%s reads, with the defaults of fields added since', (_name, value) => {
    // Fields no longer written (`paths`, `trusted`) are not carried.
    const { paths: _paths, trusted: _trusted, ...kept } = value as Record<string, unknown>;
    expect(journalEventOf(value)).toMatchObject({ ...kept, v: 1 });
  });

  it('defaults say what the older lines meant', () => {
    expect(journalEventOf(OLD_LINES.planChanged)).toMatchObject({ kept: [] });
    expect(journalEventOf(OLD_LINES.noVersion)).toMatchObject({ v: 1 });
    // The first stop records held paths without content: read as not saying, so a resume assumes nothing.
    expect(journalEventOf(OLD_LINES.uncommittedAtStop)).not.toHaveProperty('files');
  });

  it('a whole journal of them folds as it did', () => {
    const events = Object.values(OLD_LINES).map((value) => journalEventOf(value));
    const state = foldRun(events.filter((event): event is WrittenJournalEvent => event !== undefined && !(event instanceof NotARecord)));
    expect(state).toMatchObject({ runId: 'r1', options: { context_threshold: 80, max_restarts: 3, max_retries: 2 }, planChanged: { kept: [] } });
    expect(state?.phases['1']).toMatchObject({ status: 'completed', peakContextPercent: 84, sessionsWithoutCost: 1, costUsd: 0.5 });
    expect(state?.phases['1']?.sessions[0]).toMatchObject({ agentPid: 111, ended: true, outcome: 'stopped', contextWindow: 200_000, costUnknown: true });
    expect(state?.phases['1']?.uncommittedAtStop).toBeUndefined();
    expect(state?.phases['2']?.progress).toEqual([{ message: 'before versioning', ts: at(9) }]);
  });
});

describe('a line whose fields do not fit', () => {
  const start = OLD_LINES.runStarted;
  it.each([
    ['a figure written as text', { ...OLD_LINES.sessionEnded, costUsd: '0.5' }, 'session_ended: costUsd: Invalid type: Expected number but received "0.5"'],
    ['a required field missing', { type: 'session_ended', ts: at(1) }, 'session_ended: pid: Invalid key: Expected "pid" but received undefined'],
    ['an attempt without its id', { ...line(1, { type: 'attempt_started', phaseId: '1', kind: 'initial', restart: 0, retry: 0 }) }, 'attempt_started: attemptId: Invalid key: Expected "attemptId" but received undefined'],
    ['a phase id that is not text', line(1, { type: 'progress', phaseId: 7, message: 'bad id' }), 'progress: phaseId: Invalid type: Expected string but received 7'],
    ['a status no debussy writes', { ...OLD_LINES.phaseEnded, status: 'done' }, 'phase_ended: status: Invalid type: Expected ("pending" | "in_progress" | "completed" | "failed" | "blocked" | "skipped") but received "done"'],
    ['an option of the wrong type', { ...start, options: { context_threshold: '80' } }, 'run_started: options.context_threshold: Invalid type: Expected number but received "80"'],
    ['a damaged fingerprint', { ...start, planFingerprint: { masterHash: 3 } }, 'run_started: planFingerprint.masterHash: Invalid type: Expected string but received 3'],
    ['a user change of no known origin', line(1, { type: 'user_changes', phaseId: '1', changes: [{ path: 'a', origin: 'mine' }] }), 'user_changes: changes.0.origin: Invalid type: Expected ("untracked_before_phase" | "modified_before_phase" | "changed_between_runs") but received "mine"'],
    ['a log path that is not text', { ...OLD_LINES.sessionEnded, incompleteLogs: [{ path: 42, error: 'ENOSPC' }] }, 'session_ended: incompleteLogs.0.path: Invalid type: Expected string but received 42'],
    ['no type at all', { no: 'type' }, 'not a journal event (no type)'],
  ])('%s: left out, saying which field', (_name, value, problem) => {
    expect(journalEventOf(value)).toEqual(new NotARecord(problem));
  });

  it.each([
    ['a type this debussy does not know (a newer one wrote it)', { type: 'hologram_projected', phaseId: '1', ts: at(1) }],
    ["a stand-in for an unproven verdict (the reader's own, never a line's)", line(1, { type: 'unproven', why: 'unsealed', record: OLD_LINES.phaseEnded })],
  ])('%s: passed over in silence', (_name, value) => {
    expect(journalEventOf(value)).toBeUndefined();
  });
});

describe('reading a journal with such lines', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir('journal-lines');
  });
  afterEach(async () => removeDir(root));

  it('the events that fit are read, each misfit is a bad line with its problem, an unknown type is no bad line', async () => {
    const file = journalPath(root, 'r1');
    const lines = [OLD_LINES.runStarted, OLD_LINES.phaseStarted, { ...OLD_LINES.gateResult, passed: 'yes' }, { type: 'hologram_projected', ts: at(7) }, OLD_LINES.phaseEnded];
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, lines.map((value) => `${JSON.stringify(value)}\n`).join(''));
    const read = await readJournal(file);
    expect(read.events.map((event) => event.type)).toEqual(['run_started', 'phase_started', 'phase_ended']);
    expect(read.badLines).toEqual([{ line: 3, text: JSON.stringify(lines[2]), problem: 'gate_result: passed: Invalid type: Expected boolean but received "yes"' }]);
    expect(read.tornTail).toBe(false);
    // `status` counts it (badLines in --json); the rest of the run is as recorded.
    const run = await loadRun(root, 'r1');
    expect(run).toMatchObject({ badLines: 1, journalVersion: 1 });
    // Unsealed, as journals before seals: its completion is noted, not believed (journal-seal.ts).
    expect(run?.state?.phases['1']).toMatchObject({ title: 'Setup', unprovenCompletion: { why: 'unsealed' } });
  });

  it('a run_started that does not fit is a damaged first line: the run is rebuilt from the rest', async () => {
    const file = journalPath(root, 'r1');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, [{ ...OLD_LINES.runStarted, options: { context_threshold: '80' } }, OLD_LINES.phaseStarted, OLD_LINES.phaseEnded].map((value) => `${JSON.stringify(value)}\n`).join(''));
    const run = await loadRun(root, 'r1');
    expect(run).toMatchObject({ badLines: 1, firstLineDamaged: true, state: { runId: 'r1', planPath: '/p/MASTER_PLAN.md', planName: 'Demo', phaseOrder: ['1', '2'] } });
    expect(run?.state?.phases['1']).toMatchObject({ title: 'Setup', unprovenCompletion: { why: 'unsealed' } });
  });
});
