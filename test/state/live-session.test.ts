import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { foldRun, type JournalEvent } from '../../src/state/index.js';
import { LiveSessionFile, liveSessionOf, liveSessionPath, readLiveSession, withLiveSession, type LiveSession } from '../../src/state/live-session.js';

const ts = '2026-01-01T00:00:00.000Z';
const base = { v: 3, ts, pid: 1 };
const figures = { contextTokens: 41_000, contextPercent: 20.5, contextWindow: 200_000, contextLimitTokens: 160_000, peakContextTokens: 41_000, peakContextPercent: 20.5, toolCalls: 7, costUsd: 0.25, costEstimated: true, inputTokens: 1_000, outputTokens: 200 };
const live: LiveSession = { phaseId: '1', attemptId: 'a2', sessionIndex: 2, updatedAt: ts, ...figures };

function run(sessionEnded: boolean) {
  const events = [
    { ...base, type: 'run_started', runId: 'r1', planPath: '/p/M.md', planName: 'X', phaseIds: ['1'], options: {} },
    { ...base, type: 'phase_started', phaseId: '1', title: 'One' },
    { ...base, type: 'session_started', phaseId: '1', attemptId: 'a1', sessionIndex: 1 },
    { ...base, type: 'session_ended', phaseId: '1', attemptId: 'a1', sessionIndex: 1, outcome: 'stopped', costUsd: 0.5, inputTokens: 5_000, outputTokens: 500, toolCalls: 3, peakContextPercent: 60, peakContextTokens: 120_000, contextWindow: 200_000 },
    { ...base, type: 'session_started', phaseId: '1', attemptId: 'a2', sessionIndex: 2 },
    ...(sessionEnded ? [{ ...base, type: 'session_ended', phaseId: '1', attemptId: 'a2', sessionIndex: 2, outcome: 'completed' }] : []),
  ] as unknown as JournalEvent[];
  const state = foldRun(events);
  if (state === undefined) throw new Error('no run');
  return state;
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('live session figures', () => {
  it('belong to the open session they name only', () => {
    expect(liveSessionOf(run(false), live)).toBe(live);
    expect(liveSessionOf(run(true), live)).toBeUndefined();
    expect(liveSessionOf(run(false), { ...live, attemptId: 'a1', sessionIndex: 1 })).toBeUndefined();
    expect(liveSessionOf(run(false), undefined)).toBeUndefined();
  });

  it('count in the session and its phase as they will once it ends, the cost as an estimate', () => {
    const shown = withLiveSession(run(false), live);
    const phase = shown.phases['1'];
    expect(phase).toMatchObject({ costUsd: 0.75, estimatedCostUsd: 0.25, inputTokens: 6_000, outputTokens: 700, peakContextPercent: 60 });
    expect(phase?.sessions[1]).toMatchObject({ toolCalls: 7, costUsd: 0.25, costEstimated: true, peakContextTokens: 41_000, contextLimitTokens: 160_000, ended: false });
    expect(run(false).phases['1']?.costUsd).toBe(0.5);
  });

  it('are read back only when whole', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'debussy-live-'));
    const file = liveSessionPath(dir);
    writeFileSync(file, JSON.stringify(live));
    expect(readLiveSession(file)).toEqual(live);
    writeFileSync(file, JSON.stringify({ ...live, toolCalls: 'many' }));
    expect(readLiveSession(file)).toBeUndefined();
    writeFileSync(file, '{"phaseId": "1", ');
    expect(readLiveSession(file)).toBeUndefined();
    expect(readLiveSession(path.join(dir, 'none.json'))).toBeUndefined();
  });

  it('are written at most once an interval, the latest figures last, and removed at the end', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'debussy-live-'));
    const file = liveSessionPath(path.join(dir, 'sessions'));
    const writer = new LiveSessionFile(file, { phaseId: '1', attemptId: 'a2', sessionIndex: 2 }, 200);
    let calls = 0;
    const at = (toolCalls: number) => () => {
      calls += 1;
      return { ...figures, toolCalls };
    };
    writer.update(at(1));
    expect(readLiveSession(file)?.toolCalls).toBe(1);
    writer.update(at(2));
    writer.update(at(3));
    expect(readLiveSession(file)?.toolCalls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readLiveSession(file)?.toolCalls).toBe(3);
    expect(calls).toBe(2);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ phaseId: '1', attemptId: 'a2', sessionIndex: 2 });
    writer.close();
    expect(existsSync(file)).toBe(false);
    writer.update(at(4));
    expect(existsSync(file)).toBe(false);
  });
});
