import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_TOKENS, SHIPPED_PRICES } from '../../src/cost/index.js';
import { phaseSpendUsd, runSpend, withUnendedSpend } from '../../src/cost/run-spend.js';
import { spendFromStreamLog } from '../../src/cost/stream-log-spend.js';
import { STREAM_FIXTURES_DIR } from '../support/fixtures.js';
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

describe('the spend of sessions debussy was killed in', () => {
  const fixture = join(STREAM_FIXTURES_DIR, '2.1.332', 'multi-tool-session.ndjson');

  it("reads claude's figure from a stream log that holds the result, and estimates one that does not", async () => {
    expect(await spendFromStreamLog(fixture, SHIPPED_PRICES)).toMatchObject({ usd: 0.0539, estimated: false });
    const dir = await mkdtemp(join(tmpdir(), 'debussy-spend-'));
    try {
      const cut = join(dir, 'killed.stream.ndjson');
      const lines = (await readFile(fixture, 'utf8')).split('\n').filter((line) => !line.includes('"type":"result"'));
      await writeFile(cut, lines.join('\n'));
      const estimate = await spendFromStreamLog(cut, SHIPPED_PRICES);
      expect(estimate?.estimated).toBe(true);
      // Three calls of claude-opus-5-5, priced from their own tokens: close to claude's figure.
      expect(estimate?.usd).toBeGreaterThan(0.02);
      expect(estimate?.usd).toBeLessThan(0.08);
      expect(await spendFromStreamLog(join(dir, 'missing.ndjson'), SHIPPED_PRICES)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('puts an unended session\'s spend into its phase and the run, marked as estimated; ended sessions keep theirs', () => {
    const state = foldRun([
      { ...base, type: 'run_started', runId: 'r1', planPath: 'p', planName: 'p', phaseIds: ['1'], options: {} },
      { ...base, type: 'session_started', phaseId: '1', attemptId: 'a', sessionIndex: 1, agentPid: 1, promptChars: 1, streamLogPath: '/s1' },
      ended('1', 1, 0.2),
      { ...base, type: 'session_started', phaseId: '1', attemptId: 'a', sessionIndex: 2, agentPid: 1, promptChars: 1, streamLogPath: '/s2' },
    ] as JournalEvent[]);
    if (!state) throw new Error('no state');
    const figures = new Map([['/s1', { usd: 9, estimated: true, tokens: NO_TOKENS }], ['/s2', { usd: 0.15, estimated: true, tokens: NO_TOKENS }]]);
    const settled = withUnendedSpend(state, figures);
    expect(runSpend(settled).usd).toBeCloseTo(0.35, 9);
    expect(runSpend(settled).estimatedUsd).toBeCloseTo(0.15, 9);
    expect(settled.phases['1']?.sessions[1]).toMatchObject({ costUsd: 0.15, costEstimated: true });
    expect(runSpend(state).usd).toBeCloseTo(0.2, 9);
  });
});
