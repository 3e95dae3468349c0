import { describe, expect, it } from 'vitest';
import {
  effectiveRunStatus,
  foldRun,
  gatesForAttempt,
  signalForAttempt,
  unfinishedSessions,
  type JournalEvent,
  type NewJournalEvent,
} from '../../src/state/index.js';

/** Stamps scripted events one second apart, as the journal would. */
function script(events: NewJournalEvent[]): JournalEvent[] {
  const start = Date.parse('2026-11-21T21:45:00.000Z');
  return events.map((event, i): JournalEvent => ({ ...event, v: 1, pid: 4242, ts: new Date(start + i * 1000).toISOString() }));
}

const session = (phaseId: string, attemptId: string, sessionIndex: number, outcome: string, extra: Partial<Record<string, unknown>> = {}) =>
  ({
    type: 'session_ended',
    phaseId,
    attemptId,
    sessionIndex,
    outcome,
    exitCode: 0,
    signal: null,
    peakContextTokens: 100_000,
    peakContextPercent: 50,
    contextWindow: 200_000,
    toolCalls: 10,
    costUsd: 0.25,
    inputTokens: 1000,
    outputTokens: 200,
    durationMs: 60_000,
    ...extra,
  }) as NewJournalEvent;

const gate = (attemptId: string, passed: boolean): NewJournalEvent => ({
  type: 'gate_result',
  phaseId: '1',
  attemptId,
  name: 'tests',
  command: 'npm test',
  passed,
  exitCode: passed ? 0 : 1,
  durationMs: 1200,
  outputTail: passed ? 'ok' : '1 failing',
});

const phaseOneEvents: NewJournalEvent[] = [
  { type: 'run_started', runId: 'r1', planPath: '/p/MASTER_PLAN.md', planName: 'Demo', phaseIds: ['1', '2'], options: { context_threshold: 80 } },
  { type: 'phase_started', phaseId: '1', title: 'Setup', baseSha: 'base000' },
  { type: 'attempt_started', phaseId: '1', attemptId: 'a1', kind: 'initial', restart: 0, retry: 0 },
  { type: 'session_started', phaseId: '1', attemptId: 'a1', sessionIndex: 0, agentPid: 111, agentStartTime: 999, marker: 'm-1', promptChars: 5000 },
  { type: 'progress', phaseId: '1', message: 'schema written', attemptId: 'a1' },
  { type: 'context_crossed', phaseId: '1', sessionIndex: 0, trigger: 'context', usedTokens: 166_000, contextWindow: 200_000, percent: 83, threshold: 80, toolCalls: 40, stopping: true },
  { type: 'stop_requested', phaseId: '1', sessionIndex: 0, reason: 'context' },
  session('1', 'a1', 0, 'stopped', { peakContextPercent: 84, peakContextTokens: 168_000, costUsd: 0.5, toolCalls: 41 }),
  { type: 'commit', phaseId: '1', sha: 'aaa111', message: 'checkpoint', files: 3, purpose: 'checkpoint' },
  { type: 'restart', phaseId: '1', restart: 1, maxRestarts: 3, reason: 'context', checkpointChars: 900 },
  { type: 'attempt_started', phaseId: '1', attemptId: 'a2', kind: 'restart', restart: 1, retry: 0 },
  { type: 'session_started', phaseId: '1', attemptId: 'a2', sessionIndex: 1, agentPid: 222, promptChars: 6000 },
  // A late signal from the first attempt must not be taken for the second one.
  { type: 'signal', phaseId: '1', status: 'completed', attemptId: 'a1', reason: 'stale' },
  { type: 'signal', phaseId: '1', status: 'completed', attemptId: 'a2' },
  session('1', 'a2', 1, 'completed'),
  gate('a2', false),
  { type: 'attempt_started', phaseId: '1', attemptId: 'a3', kind: 'remediation', restart: 1, retry: 1 },
  { type: 'session_started', phaseId: '1', attemptId: 'a3', sessionIndex: 2, agentPid: 333, promptChars: 2000 },
  { type: 'signal', phaseId: '1', status: 'completed', attemptId: 'a3' },
  session('1', 'a3', 2, 'completed', { costUsd: 0.125, sessionId: 'sess-3' }),
  gate('a3', true),
  { type: 'commit', phaseId: '1', sha: 'bbb222', message: 'phase 1 Setup completed', files: 5, purpose: 'phase_completed' },
  { type: 'phase_ended', phaseId: '1', status: 'completed' },
  { type: 'phase_started', phaseId: '2', title: 'Build' },
  { type: 'attempt_started', phaseId: '2', attemptId: 'b1', kind: 'initial', restart: 0, retry: 0 },
  { type: 'session_started', phaseId: '2', attemptId: 'b1', sessionIndex: 0, agentPid: 444, agentStartTime: 12345, promptChars: 5000 },
  { type: 'notice', level: 'warning', message: 'slow gate' },
  { type: 'commit_failed', phaseId: '2', message: 'nothing to commit' },
];

describe('foldRun', () => {
  it('is undefined without a run_started event', () => {
    expect(foldRun([])).toBeUndefined();
    expect(foldRun(script([{ type: 'progress', phaseId: '1', message: 'orphan' }]))).toBeUndefined();
  });

  it('folds restarts, sessions, commits, signals and gates of a phase', () => {
    const events = script(phaseOneEvents);
    const state = foldRun(events);
    expect(state).toBeDefined();
    if (!state) return;
    expect(state).toMatchObject({ runId: 'r1', planName: 'Demo', status: 'running', options: { context_threshold: 80 } });
    expect(state.startedAt).toBe(events[0]?.ts);
    expect(state.lastEventAt).toBe(events.at(-1)?.ts);
    expect(state.phaseOrder).toEqual(['1', '2']);

    const one = state.phases['1'];
    expect(one).toMatchObject({
      title: 'Setup',
      baseSha: 'base000',
      status: 'completed',
      attempts: 3,
      restarts: 1,
      retries: 1,
      currentAttemptId: 'a3',
      peakContextPercent: 84,
      costUsd: 0.875,
      inputTokens: 3000,
      outputTokens: 600,
      durationMs: 21_000,
    });
    expect(one?.sessions.map((s) => [s.attemptId, s.sessionIndex, s.outcome, s.ended])).toEqual([
      ['a1', 0, 'stopped', true],
      ['a2', 1, 'completed', true],
      ['a3', 2, 'completed', true],
    ]);
    expect(one?.sessions[0]).toMatchObject({ agentPid: 111, agentStartTime: 999, marker: 'm-1', peakContextTokens: 168_000, toolCalls: 41 });
    expect(one?.sessions[2]?.sessionId).toBe('sess-3');
    expect(one?.commits).toEqual([
      { sha: 'aaa111', message: 'checkpoint', purpose: 'checkpoint' },
      { sha: 'bbb222', message: 'phase 1 Setup completed', purpose: 'phase_completed' },
    ]);
    expect(one?.progress).toEqual([{ message: 'schema written', ts: events[4]?.ts, attemptId: 'a1' }]);
    expect(one?.signals).toHaveLength(3);
    if (!one) return;
    expect(signalForAttempt(one, 'a2')?.reason).toBeUndefined();
    expect(signalForAttempt(one, 'a1')?.reason).toBe('stale');
    expect(signalForAttempt(one, 'nope')).toBeUndefined();
    expect(gatesForAttempt(one, 'a2').map((g) => g.passed)).toEqual([false]);
    expect(gatesForAttempt(one, 'a3').map((g) => g.passed)).toEqual([true]);

    expect(state.phases['2']).toMatchObject({ title: 'Build', status: 'in_progress', attempts: 1, currentAttemptId: 'b1' });
    expect(state.notices.map((n) => [n.level, n.message, n.phaseId])).toEqual([
      ['warning', 'slow gate', undefined],
      ['warning', 'commit failed: nothing to commit', '2'],
    ]);
  });

  it('shows the live crossing of a session that has not ended', () => {
    const state = foldRun(script(phaseOneEvents.slice(0, 6)));
    expect(state?.phases['1']?.sessions[0]).toMatchObject({ ended: false, peakContextPercent: 83, peakContextTokens: 166_000, toolCalls: 40 });
    expect(state?.phases['1']?.peakContextPercent).toBe(83);
  });

  it('lists sessions whose agents may outlive a crash', () => {
    const state = foldRun(script(phaseOneEvents));
    expect(state && unfinishedSessions(state).map(({ phaseId, session: s }) => [phaseId, s.agentPid, s.agentStartTime])).toEqual([
      ['2', 444, 12345],
    ]);
  });

  it('ends the run and leaves unstarted phases pending', () => {
    const state = foldRun(
      script([
        phaseOneEvents[0] as NewJournalEvent,
        { type: 'phase_started', phaseId: '1', title: 'Setup' },
        { type: 'phase_ended', phaseId: '1', status: 'blocked', reason: 'needs an API key' },
        { type: 'run_ended', status: 'blocked', exitCode: 5, reason: 'phase 1 blocked' },
      ]),
    );
    expect(state).toMatchObject({ status: 'blocked', exitCode: 5, reason: 'phase 1 blocked' });
    expect(state?.endedAt).toBeDefined();
    expect(state?.phases['1']).toMatchObject({ status: 'blocked', reason: 'needs an API key' });
    expect(state?.phases['2']?.status).toBe('pending');
  });

  it('reopens a run when its journal gets a second run_started', () => {
    const state = foldRun(
      script([
        phaseOneEvents[0] as NewJournalEvent,
        { type: 'commit', phaseId: '1', sha: 'aaa', message: 'm', files: 1, purpose: 'checkpoint' },
        { type: 'run_ended', status: 'interrupted', exitCode: 130 },
        { type: 'run_started', runId: 'r1', planPath: '/p/MASTER_PLAN.md', planName: 'Demo', phaseIds: ['1', '2', '3'], options: {} },
      ]),
    );
    expect(state).toMatchObject({ status: 'running', phaseOrder: ['1', '2', '3'] });
    expect(state?.exitCode).toBeUndefined();
    expect(state?.phases['1']?.commits).toHaveLength(1);
  });
});

describe('effectiveRunStatus', () => {
  const running = foldRun(script([phaseOneEvents[0] as NewJournalEvent]));
  it('calls a running run interrupted unless its own lock is alive', () => {
    if (!running) throw new Error('no state');
    expect(effectiveRunStatus(running, undefined)).toBe('interrupted');
    expect(effectiveRunStatus(running, { runId: 'r1', alive: false })).toBe('interrupted');
    expect(effectiveRunStatus(running, { runId: 'other', alive: true })).toBe('interrupted');
    expect(effectiveRunStatus(running, { runId: 'r1', alive: true })).toBe('running');
    expect(effectiveRunStatus({ ...running, status: 'completed' }, undefined)).toBe('completed');
  });
});
