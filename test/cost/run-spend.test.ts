import { describe, expect, it } from 'vitest';
import { phaseSpendUsd, runSpend } from '../../src/cost/run-spend.js';
import { foldRun } from '../../src/state/fold.js';
import type { JournalEvent } from '../../src/state/events.js';

const base = { v: 1, ts: '2026-11-23T23:00:00.000Z', pid: 1 } as const;
const ended = (phaseId: string, sessionIndex: number, costUsd: number, extra: Record<string, unknown> = {}): JournalEvent => ({
  ...base, type: 'session_ended', phaseId, attemptId: 'a', sessionIndex, outcome: 'completed', exitCode: 0, signal: null,
  peakContextTokens: 0, peakContextPercent: 0, contextWindow: 0, toolCalls: 0, costUsd, inputTokens: 0, outputTokens: 0, durationMs: 1, ...extra,
});

describe('runSpend', () => {
  it("adds claude's figures, debussy's estimates and the resumed runs' spend, and says what is estimated", () => {
    const state = foldRun([
      { ...base, type: 'run_started', runId: 'r2', planPath: 'p', planName: 'p', phaseIds: ['1', '2'], options: {}, priorCostUsd: 0.4, priorCostEstimatedUsd: 0.1 },
      { ...base, type: 'session_started', phaseId: '1', attemptId: 'a', sessionIndex: 1, agentPid: 1, marker: 'm', promptChars: 1 },
      ended('1', 1, 0.2),
      { ...base, type: 'session_started', phaseId: '2', attemptId: 'a', sessionIndex: 1, agentPid: 1, marker: 'm', promptChars: 1 },
      ended('2', 1, 0.15, { costEstimated: true }),
    ] as JournalEvent[]);
    if (!state) throw new Error('no state');
    const spend = runSpend(state);
    expect(spend.usd).toBeCloseTo(0.75, 9);
    expect(spend.estimatedUsd).toBeCloseTo(0.25, 9);
    expect(spend.unknownSessions).toBe(0);
    expect(phaseSpendUsd(state, '2', 0.05)).toBeCloseTo(0.2, 9);
    expect(state.phases['2']?.sessions[0]?.costEstimated).toBe(true);
  });
});
