/** What a resumed run carries of the phase it continues, across one resume and across two. */
import { describe, expect, it } from 'vitest';
import { completionsToCarry, continuesRun, planResume } from '../../src/orchestrator/resume-plan.js';
import type { Plan } from '../../src/plan/types.js';
import { foldRun, type JournalEvent, type NewJournalEvent, type RunState } from '../../src/state/index.js';

function stamp(events: NewJournalEvent[], start: string): JournalEvent[] {
  return events.map((event, i): JournalEvent => ({ ...event, v: 1, pid: 1, ts: new Date(Date.parse(start) + i * 1000).toISOString() }));
}

const plan = { phases: [{ id: '1', status: 'pending' }] } as unknown as Plan;

const sessionEnded = (attemptId: string, lastActivity?: string[]): NewJournalEvent => ({
  type: 'session_ended', phaseId: '1', attemptId, sessionIndex: 1, outcome: 'stopped', exitCode: null, signal: 'SIGINT',
  peakContextTokens: 0, peakContextPercent: 0, contextWindow: 0, toolCalls: 1, costUsd: 0, inputTokens: 0, outputTokens: 0, durationMs: 1,
  ...(lastActivity ? { lastActivity } : {}),
});

function interruptedRun(runId: string, extra: NewJournalEvent[]): RunState {
  const state = foldRun(stamp([
    { type: 'run_started', runId, planPath: 'p', planName: 'P', phaseIds: ['1'], options: {} },
    { type: 'phase_started', phaseId: '1', title: 'One', baseSha: 'base' },
    ...extra,
    { type: 'phase_ended', phaseId: '1', status: 'in_progress' },
    { type: 'run_ended', status: 'interrupted', exitCode: 130 },
  ], '2026-11-23T10:00:00Z'));
  if (!state) throw new Error('no state');
  return state;
}

describe('planResume carries what the interrupted run recorded', () => {
  it('progress entries and the last activity of its last session', () => {
    const prior = interruptedRun('r1', [
      { type: 'attempt_started', phaseId: '1', attemptId: 'a1', kind: 'initial', restart: 0, retry: 0 },
      { type: 'progress', phaseId: '1', message: 'wrote part one', attemptId: 'a1' },
      sessionEnded('a1', ['Write part1.txt', 'Bash: sleep 27']),
    ]);
    const carry = planResume({ plan, prior, marks: {} }).carry.get('1');
    expect(carry?.resumedFrom).toMatchObject({ runId: 'r1', progress: [{ message: 'wrote part one' }], lastActivity: ['Write part1.txt', 'Bash: sleep 27'] });
    expect(carry?.baseSha).toBe('base');
  });

  it('a run resumed twice still carries the first run entries, before its own', () => {
    const second = interruptedRun('r2', [
      { type: 'phase_resumed', phaseId: '1', fromRunId: 'r1', progress: [{ message: 'wrote part one', ts: '2026-11-23T09:00:00Z' }], lastActivity: ['Bash: sleep 27'] },
      { type: 'attempt_started', phaseId: '1', attemptId: 'a2', kind: 'resume', restart: 0, retry: 0 },
      { type: 'progress', phaseId: '1', message: 'wrote part two', attemptId: 'a2' },
    ]);
    const carry = planResume({ plan, prior: second, marks: {} }).carry.get('1');
    expect(carry?.resumedFrom?.progress.map((p) => p.message)).toEqual(['wrote part one', 'wrote part two']);
    // The second run was killed before its session ended: the first run's last activity stays.
    expect(carry?.resumedFrom?.lastActivity).toEqual(['Bash: sleep 27']);
  });

  it('names the stream log of a last session that never ended (debussy was killed during it)', () => {
    const started = (attemptId: string, n: number): NewJournalEvent => ({
      type: 'session_started', phaseId: '1', attemptId, sessionIndex: n, agentPid: 1, promptChars: 1, streamLogPath: `/runs/r1/sessions/1-0${n}.stream.ndjson`,
    });
    const attempt = (attemptId: string): NewJournalEvent => ({ type: 'attempt_started', phaseId: '1', attemptId, kind: 'initial', restart: 0, retry: 0 });
    const killed = interruptedRun('r1', [attempt('a1'), started('a1', 1), sessionEnded('a1', ['first']), attempt('a2'), started('a2', 2)]);
    expect(planResume({ plan, prior: killed, marks: {} }).carry.get('1')?.resumedFrom).toMatchObject({
      lastActivity: ['first'], unendedSessionLog: '/runs/r1/sessions/1-02.stream.ndjson',
    });
    const ended = interruptedRun('r1', [attempt('a1'), started('a1', 1), sessionEnded('a1', ['first'])]);
    expect(planResume({ plan, prior: ended, marks: {} }).carry.get('1')?.resumedFrom?.unendedSessionLog).toBeUndefined();
  });

  it("a later session's activity replaces the carried one", () => {
    const second = interruptedRun('r2', [
      { type: 'phase_resumed', phaseId: '1', fromRunId: 'r1', progress: [], lastActivity: ['old'] },
      { type: 'attempt_started', phaseId: '1', attemptId: 'a2', kind: 'resume', restart: 0, retry: 0 },
      sessionEnded('a2', ['new']),
    ]);
    expect(planResume({ plan, prior: second, marks: {} }).carry.get('1')?.resumedFrom?.lastActivity).toEqual(['new']);
  });
});

describe('planResume: whatever ended the run, its unfinished phase resumes from its checkpoint', () => {
  const run = (runId: string, runEnd: NewJournalEvent, phaseEnd: NewJournalEvent, extra: NewJournalEvent[] = []): RunState => {
    const state = foldRun(stamp([
      { type: 'run_started', runId, planPath: 'p', planName: 'P', phaseIds: ['1'], options: {} },
      { type: 'phase_started', phaseId: '1', title: 'One', baseSha: 'base' },
      { type: 'user_changes', phaseId: '1', changes: [{ path: 'mine.txt', origin: 'modified_before_phase' }] },
      { type: 'attempt_started', phaseId: '1', attemptId: 'a1', kind: 'initial', restart: 2, retry: 1 },
      { type: 'progress', phaseId: '1', message: 'rewrote src/app.txt', attemptId: 'a1' },
      sessionEnded('a1', ['Bash: echo two > src/app.txt']),
      ...extra,
      phaseEnd,
      runEnd,
    ], '2026-11-23T10:00:00Z'));
    if (!state) throw new Error('no state');
    return state;
  };
  const left = { type: 'uncommitted_at_stop', phaseId: '1', files: [{ path: 'src/app.txt', hash: 'abc' }] } as const satisfies NewJournalEvent;

  it.each([
    ['an abort (a rejected API key)', { type: 'run_ended', status: 'aborted', exitCode: 3 }, 'failed', 'the API rejected the key'],
    ['a failed phase', { type: 'run_ended', status: 'failed', exitCode: 1 }, 'failed', 'no retries left'],
    ['a blocked phase', { type: 'run_ended', status: 'blocked', exitCode: 5 }, 'blocked', 'needs a person'],
    ['a phase skipped by recovery', { type: 'run_ended', status: 'failed', exitCode: 1 }, 'skipped', 'crash loop'],
  ] as const)('%s: its checkpoint, work and user changes carry; the phase gets fresh counters', (_what, runEnd, status, reason) => {
    const prior = run('r1', runEnd, { type: 'phase_ended', phaseId: '1', status, reason }, [left]);
    const resume = planResume({ plan, prior, marks: {} });
    expect(resume.resumedFrom).toBe('r1');
    expect(resume.carry.get('1')).toMatchObject({
      restarts: 0, retries: 0, sessions: 1, baseSha: 'base',
      resumeReason: `run r1 stopped during this phase (${reason})`,
      userChanges: [{ path: 'mine.txt', origin: 'modified_before_phase' }],
      uncommittedAtStop: [{ path: 'src/app.txt', hash: 'abc' }],
      resumedFrom: { runId: 'r1', progress: [{ message: 'rewrote src/app.txt' }], lastActivity: ['Bash: echo two > src/app.txt'] },
    });
    expect(resume.carry.get('1')?.priorCostUsd).toBeUndefined();
    expect(continuesRun(prior)).toBe(true);
  });

  it('an interrupted phase keeps its counters and spend', () => {
    const prior = run('r1', { type: 'run_ended', status: 'interrupted', exitCode: 9 }, { type: 'phase_ended', phaseId: '1', status: 'in_progress', reason: 'budget reached' });
    expect(planResume({ plan, prior, marks: {} }).carry.get('1')).toMatchObject({ restarts: 2, retries: 1, priorCostUsd: 0, resumeReason: 'run r1 was interrupted during this phase' });
  });

  it("a phase given up on by an older debussy, which recorded nothing it left: what differs from HEAD stays the user's", () => {
    const prior = run('r1', { type: 'run_ended', status: 'failed', exitCode: 1 }, { type: 'phase_ended', phaseId: '1', status: 'failed' });
    expect(planResume({ plan, prior, marks: {} }).carry.get('1')?.uncommittedAtStop).toEqual([]);
  });

  it('a completed run, or a phase no session worked on, leaves nothing to resume', () => {
    const completed = run('r1', { type: 'run_ended', status: 'completed', exitCode: 0 }, { type: 'phase_ended', phaseId: '1', status: 'completed' });
    expect(continuesRun(completed)).toBe(false);
    expect(planResume({ plan, prior: completed, marks: {} })).toMatchObject({ resumedFrom: undefined, carry: new Map() });
    const skipped = foldRun(stamp([
      { type: 'run_started', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1'], options: {} },
      { type: 'phase_ended', phaseId: '1', status: 'skipped', reason: 'dependency 0 did not complete' },
      { type: 'run_ended', status: 'failed', exitCode: 1 },
    ], '2026-11-23T10:00:00Z'));
    expect(continuesRun(skipped)).toBe(false);
    expect(planResume({ plan, prior: skipped, marks: {} }).carry.size).toBe(0);
  });
});

describe('planResume: completions debussy cannot prove are claims', () => {
  const plan2 = { phases: [{ id: '1', status: 'pending' }, { id: '2', status: 'pending' }] } as unknown as Plan;
  const unprovenCompletion = (phaseId: string): JournalEvent => ({
    type: 'unproven', v: 1, pid: 1, ts: '2026-11-23T11:00:00Z', why: 'unsealed', record: { type: 'phase_ended', phaseId, status: 'completed', v: 1, pid: 1, ts: '2026-11-23T11:00:00Z' },
  });
  const ended = (runId: string, extra: JournalEvent[]): RunState => {
    const state = foldRun([
      ...stamp([
        { type: 'run_started', runId, planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} },
        { type: 'phase_started', phaseId: '1', title: 'One' },
        { type: 'phase_ended', phaseId: '1', status: 'completed' },
        { type: 'phase_started', phaseId: '2', title: 'Two' },
        { type: 'phase_ended', phaseId: '2', status: 'failed', reason: 'gate check failed' },
        { type: 'run_ended', status: 'failed', exitCode: 1 },
      ], '2026-11-23T10:00:00Z'),
      ...extra,
    ]);
    if (!state) throw new Error('no state');
    return state;
  };
  const mark = (over: { unproven?: 'not_verified' | 'unsealed' | 'bad_seal' } = {}) => ({ status: 'completed', ts: '2026-11-23T09:00:00Z', ...over });

  it.each([
    ['a forged completion in the last run', { prior: ended('r1', [unprovenCompletion('2')]), marks: {} }, /its completion recorded in run r1 cannot be proven: it carries no seal/],
    ['a mark without --verify', { prior: undefined, marks: { '2': mark({ unproven: 'not_verified' }) } }, /marked done with `debussy done` at 2026-11-23T09:00:00Z without --verify/],
    ['a verified mark whose seal does not match', { prior: undefined, marks: { '2': mark({ unproven: 'bad_seal' }) } }, /`debussy done --verify` mark of .* cannot be proven: its seal does not match/],
  ])('%s: verified again by its gates, and the run says why', (_what, given, why) => {
    const resume = planResume({ plan: plan2, ...given });
    expect(resume.completed.has('2')).toBe(false);
    expect(resume.carry.get('2')?.reverify).toMatch(why);
    expect(resume.unproven.get('2')).toMatch(/^phase 2: .*; its gates run again before it counts as done \(--trust-completed skips this\)$/);
    const trusted = planResume({ plan: plan2, ...given, trustCompleted: true });
    expect(trusted.completed.get('2')).toMatch(/taken as done \(--trust-completed\)$/);
    expect(trusted.carry.has('2')).toBe(false);
    expect(trusted.unproven.get('2')).toMatch(/^phase 2: .*; taken as done \(--trust-completed\)$/);
  });

  it('a proven completion stands, and wins over an unproven claim', () => {
    const resume = planResume({ plan: plan2, prior: ended('r1', [unprovenCompletion('1')]), marks: { '2': mark() } });
    // Phase 1's journal says completed (sealed) before the forged line: the forgery changes nothing it did not already say.
    expect([...resume.completed.keys()].sort()).toEqual(['1', '2']);
    expect(resume.unproven.size).toBe(0);
    expect(resume.completed.get('2')).toContain('debussy done --verify');
  });

  it('an interrupted phase whose completion is forged keeps its checkpoint for when a gate fails', () => {
    const forged = foldRun([...stamp([
      { type: 'run_started', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1'], options: {} },
      { type: 'phase_started', phaseId: '1', title: 'One', baseSha: 'base' },
      { type: 'attempt_started', phaseId: '1', attemptId: 'a1', kind: 'initial', restart: 0, retry: 0 },
    ], '2026-11-23T10:00:00Z'), unprovenCompletion('1')]);
    expect(forged?.phases['1']?.status).toBe('in_progress');
    const carry = planResume({ plan, prior: forged, marks: {} }).carry.get('1');
    expect(carry).toMatchObject({ resumeReason: expect.stringContaining('interrupted') as string, baseSha: 'base', reverify: expect.stringContaining('cannot be proven') as string });
  });
});

describe('completionsToCarry: what a run that selects some phases records of the others', () => {
  const phases = ['1', '2', '3', '4'].map((id) => ({ id, status: id === '2' ? 'completed' : 'pending' }));
  const ordered = { phases } as unknown as Plan;
  const known = new Map([['1', 'completed in run r1'], ['2', 'the master plan marks it complete'], ['4', 'marked done with `debussy done --verify` at t']]);
  it.each([
    { name: 'a full run: nothing (its skipped phases are recorded as such)', selected: ['1', '2', '3', '4'], expected: [] },
    { name: '--only 3: the others known complete, in plan order, but the one the master plan marks', selected: ['3'], expected: ['1: completed in run r1', '4: marked done with `debussy done --verify` at t'] },
    { name: '--only 1, complete before: it runs again, so only the others', selected: ['1'], expected: ['4: marked done with `debussy done --verify` at t'] },
    { name: '--phase 3 (3 and 4): the phases before it', selected: ['3', '4'], expected: ['1: completed in run r1'] },
  ])('$name', ({ selected, expected }) => {
    expect(completionsToCarry(ordered, selected, known).map(({ id, why }) => `${id}: ${why}`)).toEqual(expected);
  });
});
