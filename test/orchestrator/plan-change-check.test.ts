/** What a changed plan does to the resume plan: completion taken away, kept, or carried to a new id. */
import { describe, expect, it } from 'vitest';
import { checkPlanChange } from '../../src/orchestrator/plan-change-check.js';
import type { ResumePlan } from '../../src/orchestrator/resume-plan.js';
import { toleratedGates } from '../../src/orchestrator/regression-check.js';
import type { PhaseFingerprint, PlanFingerprint } from '../../src/plan/fingerprint.js';
import { foldRun, type JournalEvent, type NewJournalEvent, type RunState } from '../../src/state/index.js';
import { gateKey } from '../../src/verification/regression.js';

const phase = (id: string, over: Partial<PhaseFingerprint> = {}): PhaseFingerprint => ({ id, title: `P${id}`, file: `phase-${id}.md`, fileHash: `h${id}`, gates: [{ name: 'check', command: 'true' }], dependsOn: [], ...over });
const fp = (...phases: PhaseFingerprint[]): PlanFingerprint => ({ masterHash: 'm', phases });

function stamp(events: NewJournalEvent[]): JournalEvent[] {
  return events.map((event, i) => ({ ...event, v: 1, pid: 1, ts: new Date(Date.parse('2026-11-23T10:00:00Z') + i * 1000).toISOString() }));
}
const prior = (fingerprint: PlanFingerprint | undefined): RunState =>
  foldRun(stamp([{ type: 'run_started', runId: 'r1', planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {}, ...(fingerprint ? { planFingerprint: fingerprint } : {}) }])) as RunState;
const resume = (...done: string[]): ResumePlan => ({ completed: new Map(done.map((id) => [id, 'completed in run r1'])), carry: new Map(), resumedFrom: undefined, unproven: new Map() });

describe('checkPlanChange', () => {
  it('nothing to compare (no earlier run, an older journal) or nothing changed: no change', () => {
    expect(checkPlanChange(undefined, fp(phase('1')), resume('1'), false)).toBeUndefined();
    expect(checkPlanChange(prior(undefined), fp(phase('1')), resume('1'), false)).toBeUndefined();
    expect(checkPlanChange(prior(fp(phase('1'))), fp(phase('1')), resume('1'), false)).toBeUndefined();
  });

  it('a completed phase whose gate changed leaves the completed set and carries why it runs again', () => {
    const change = checkPlanChange(prior(fp(phase('1'), phase('2'))), fp(phase('1', { gates: [{ name: 'check', command: 'npm test' }] }), phase('2')), resume('1', '2'), false);
    expect([...(change?.resume.completed.keys() ?? [])]).toEqual(['2']);
    expect(change?.resume.carry.get('1')).toEqual({ restarts: 0, retries: 0, sessions: 0, reverify: 'its gates changed since it completed' });
    expect(change?.event).toMatchObject({ type: 'plan_changed', sinceRunId: 'r1', reverify: ['1'], kept: [] });
    expect(change?.lines).toEqual(['phase 1: gate check changed: `true` -> `npm test`', 'phase 1: its gates changed since it completed: its gates run again before it counts as done (--trust-completed skips this)']);
  });

  it('--trust-completed keeps it in the completed set and records it as kept', () => {
    const change = checkPlanChange(prior(fp(phase('1'))), fp(phase('1', { fileHash: 'other' })), resume('1'), true);
    expect([...(change?.resume.completed.keys() ?? [])]).toEqual(['1']);
    expect(change?.event).toMatchObject({ reverify: [], kept: ['1'] });
  });

  it('a renumbered completed phase is completed under its new id', () => {
    const change = checkPlanChange(prior(fp(phase('1'), phase('2'))), fp(phase('1'), phase('3', { fileHash: 'h2' })), resume('1', '2'), false);
    expect(change?.resume.completed.get('3')).toBe('completed as phase 2 (completed in run r1)');
  });
});

describe('toleratedGates', () => {
  it('the gates a completed phase of the run last saw failing (let through as inherited)', () => {
    const gate = (phaseId: string, name: string, passed: boolean): NewJournalEvent => ({ type: 'gate_result', phaseId, name, command: 'c', passed, exitCode: passed ? 0 : 1, durationMs: 1, outputTail: '' });
    const state = foldRun(stamp([
      { type: 'run_started', runId: 'r', planPath: 'p', planName: 'P', phaseIds: ['1', '2'], options: {} },
      gate('1', 'lint', false), gate('1', 'tests', false), gate('1', 'tests', true),
      { type: 'phase_ended', phaseId: '1', status: 'completed' },
      gate('2', 'lint', false),
      { type: 'phase_ended', phaseId: '2', status: 'failed' },
    ])) as RunState;
    expect([...toleratedGates(state)]).toEqual([gateKey('1', 'lint')]);
  });
});
