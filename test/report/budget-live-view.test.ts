import { describe, expect, it } from 'vitest';
import { NO_COLORS } from '../../src/report/color.js';
import { applyJournalEvent, applyRunStart, INITIAL_LIVE_STATE } from '../../src/report/live-state.js';
import { renderStatusArea } from '../../src/report/status-area.js';
import { journalOf, START_INFO, T0 } from './run-events.js';

const base = { v: 1, ts: new Date(T0).toISOString(), pid: 1 } as const;

function afterStart(extra: Record<string, unknown>) {
  const [started, ...rest] = journalOf();
  if (started?.type !== 'run_started') throw new Error('the sample journal starts with run_started');
  let state = applyRunStart(INITIAL_LIVE_STATE, START_INFO);
  state = applyJournalEvent(state, { ...started, ...extra }, T0);
  for (const event of rest.slice(0, 3)) state = applyJournalEvent(state, event, T0);
  return state;
}

const frame = (state: ReturnType<typeof afterStart>, now = T0 + 10_000) => renderStatusArea(state, { now, width: 140, colors: NO_COLORS, unicode: false, spinnerFrame: 0 }).join('\n');

describe('the live view with a budget and a usage limit', () => {
  it("shows spend against max_cost, the resumed runs' spend included, and marks estimates", () => {
    let state = afterStart({ budget: { maxCostUsd: 2 }, priorCostUsd: 0.5 });
    state = applyJournalEvent(state, { ...base, type: 'session_ended', phaseId: '1', attemptId: 'a', sessionIndex: 1, outcome: 'stopped', exitCode: 0, signal: null, peakContextTokens: 0, peakContextPercent: 0, contextWindow: 0, toolCalls: 0, costUsd: 0.25, inputTokens: 1, outputTokens: 1, durationMs: 1, costEstimated: true }, T0);
    expect(frame(state)).toContain('cost ~$0.25 ($0.75 of $2.00)');
  });

  it("counts what the --queue workers' jobs spent, as the run's own state does (status, max_cost)", () => {
    let state = afterStart({ budget: { maxCostUsd: 2 } });
    state = applyJournalEvent(state, { ...base, type: 'phase_job', phaseId: '2', jobId: 'j2', stage: 'queued' }, T0);
    state = applyJournalEvent(state, { ...base, type: 'phase_job', phaseId: '2', jobId: 'j2', stage: 'ended', worker: 'host:7', status: 'completed', commitSha: 'abc', costUsd: 0.4 }, T0);
    expect(frame(state)).toContain('cost $0.40 ($0.40 of $2.00)');
  });

  it('counts down to the reset while waiting for a usage limit, and stops counting when it ends', () => {
    let state = afterStart({});
    state = applyJournalEvent(state, { ...base, type: 'usage_limit', phaseId: '1', stage: 'started', kind: 'five_hour', source: 'rate_limit_event', resetAt: T0 + 190_000, until: T0 + 191_000 }, T0);
    expect(frame(state, T0 + 61_000)).toContain('waiting for the usage limit (five_hour) to reset: 2m10s left');
    state = applyJournalEvent(state, { ...base, type: 'usage_limit', phaseId: '1', stage: 'ended', kind: 'five_hour', source: 'rate_limit_event', waitedMs: 191_000 }, T0);
    expect(frame(state, T0 + 200_000)).toContain('usage limit reset: resuming');
    expect(frame(state, T0 + 200_000)).not.toContain('left');
  });
});
