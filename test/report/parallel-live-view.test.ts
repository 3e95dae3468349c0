/** --parallel in the live view: one line per running phase, each with its own session's figures. */
import { describe, expect, it } from 'vitest';
import { NO_COLORS } from '../../src/report/color.js';
import { applyAgentEvent, applyJournalEvent, applyRunStart, INITIAL_LIVE_STATE, type LiveState } from '../../src/report/live-state.js';
import { renderStatusArea } from '../../src/report/status-area.js';
import type { JournalEvent } from '../../src/state/index.js';
import { START_INFO, T0 } from './run-events.js';

const base = { v: 1, ts: new Date(T0).toISOString(), pid: 1 } as const;
const frame = (state: LiveState, height?: number) => renderStatusArea(state, { now: T0 + 5000, width: 120, ...(height === undefined ? {} : { height }), colors: NO_COLORS, unicode: false, spinnerFrame: 0 });
const apply = (state: LiveState, ...events: JournalEvent[]) => events.reduce((s, e) => applyJournalEvent(s, e, T0), state);
const started = (phaseId: string, title: string): JournalEvent => ({ ...base, type: 'phase_started', phaseId, title });
const session = (phaseId: string): JournalEvent => ({ ...base, type: 'session_started', phaseId, attemptId: 'a', sessionIndex: 1, agentPid: 1, promptChars: 1, logPath: 'x' });

describe('the live view with phases side by side', () => {
  it('shows one line per running phase, with its context and what it does, and drops a phase when it ends', () => {
    let state = applyRunStart(INITIAL_LIVE_STATE, START_INFO);
    state = apply(state, started('1', 'Left'), session('1'), started('2', 'Right'), session('2'));
    state = applyAgentEvent(state, { type: 'tool_start', messageId: 'm', toolUseId: 't', name: 'Bash', input: {}, summary: 'Bash' }, { usedTokens: 50_000, contextWindow: 200_000, percent: 25, toolCalls: 1 }, '1');
    const lines = frame(state);
    expect(lines.find((line) => line.includes('phase 1: Left'))).toMatch(/context 25% \| running Bash/);
    expect(lines.find((line) => line.includes('phase 2: Right'))).toMatch(/session 1 running/);
    state = apply(state, { ...base, type: 'phase_ended', phaseId: '1', status: 'completed' });
    expect(frame(state).some((line) => line.includes('phase 1: Left'))).toBe(false);
    expect(state.running.map((phase) => phase.id)).toEqual(['2']);
  });

  it('one phase running: the usual frame, nothing added', () => {
    const state = apply(applyRunStart(INITIAL_LIVE_STATE, START_INFO), started('1', 'Left'), session('1'));
    expect(frame(state)).toHaveLength(4);
  });

  it('a short terminal keeps the usual frame rather than cut the phase lines', () => {
    const state = apply(applyRunStart(INITIAL_LIVE_STATE, START_INFO), started('1', 'Left'), started('2', 'Right'), started('3', 'Third'));
    expect(frame(state, 100)).toHaveLength(6);
    expect(frame(state, 10)).toHaveLength(4);
  });
});
