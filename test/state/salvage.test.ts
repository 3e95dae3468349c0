import { describe, expect, it } from 'vitest';
import type { JournalEvent, PlanUsedEvent } from '../../src/state/index.js';
import { salvageRunStart } from '../../src/state/salvage.js';

const at = '2026-11-23T10:00:00.000Z';
const events = [
  { type: 'phase_started', phaseId: '1', title: 'One', v: 1, ts: at, pid: 42 },
  { type: 'phase_ended', phaseId: '1', status: 'completed', v: 1, ts: at, pid: 42 },
  { type: 'phase_started', phaseId: '2', title: 'Two', v: 1, ts: at, pid: 42 },
] as JournalEvent[];
const planUse = (pid: number, ts: string): PlanUsedEvent => ({ type: 'plan_used', v: 1, ts, pid, planPath: '/p/MASTER_PLAN.md' });
const full = '{"type":"run_started","runId":"r1","planPath":"/torn/MASTER_PLAN.md","planName":"Torn Plan","phaseIds":["1","2","3"],"options":{}';

describe('salvageRunStart', () => {
  it.each([
    ['fields still in the torn text', full.slice(0, full.indexOf('"options"')), [], { planPath: '/torn/MASTER_PLAN.md', planName: 'Torn Plan', phaseIds: ['1', '2', '3'] }],
    ['plan path cut: from plan_used of the same process and moment', full.slice(0, 50), [planUse(7, at), planUse(42, at)], { planPath: '/p/MASTER_PLAN.md', phaseIds: ['1', '2'] }],
    ['plan_used of another moment is not taken', full.slice(0, 50), [planUse(42, '2026-11-22T10:00:00.000Z')], { planPath: '', planName: '(unknown plan)' }],
  ])('%s', (_name, text, uses, expected) => {
    const start = salvageRunStart({ runId: 'r1', firstLine: { line: 1, text }, events, planUses: uses });
    expect(start).toMatchObject({ type: 'run_started', runId: 'r1', ts: at, pid: 42, ...expected });
  });

  it('nothing to rebuild from: undefined', () => {
    expect(salvageRunStart({ runId: 'r1', firstLine: { line: 1, text: '{"ty' }, events: [], planUses: [] })).toBeUndefined();
  });
});
