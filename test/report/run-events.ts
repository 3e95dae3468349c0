/** A small run as the orchestrator reports it: journal events, agent events, the start info. */
import type { AgentEvent } from '../../src/agent/index.js';
import type { ContextSnapshot } from '../../src/context/index.js';
import type { Phase, Plan } from '../../src/plan/types.js';
import type { RunStartInfo } from '../../src/report/reporter.js';
import { foldRun, type JournalEvent, type NewJournalEvent, type RunState } from '../../src/state/index.js';

export const T0 = Date.parse('2030-01-02T03:04:05.000Z');

/** Stamps events one second apart from T0, as the journal would. */
export function stamp(events: NewJournalEvent[], startMs = T0): JournalEvent[] {
  return events.map((event, i) => ({ ...event, v: 1, ts: new Date(startMs + i * 1000).toISOString(), pid: 4242 }));
}

function phase(id: string, title: string): Phase {
  return { id, title, link: `phase-${id}.md`, path: `/plans/demo/phase-${id}.md`, status: undefined, statusText: undefined, dependsOn: [], dependencyRefs: [], extra: {}, line: 1, file: undefined };
}

export const PLAN: Plan = { name: 'Demo Plan', path: '/plans/demo/MASTER_PLAN.md', phases: [phase('1', 'Set up'), phase('2', 'Build the thing')] };

export const START_INFO: RunStartInfo = {
  runId: 'run-1', plan: PLAN, phases: PLAN.phases, alreadyComplete: [], maxRestarts: 3, contextThreshold: 80, resumedFrom: undefined,
};

/** Phase 1 crosses the threshold, restarts once, completes; phase 2 fails; the run fails. */
export const RESTART_THEN_FAIL: NewJournalEvent[] = [
  { type: 'run_started', runId: 'run-1', planPath: PLAN.path, planName: PLAN.name, phaseIds: ['1', '2'], options: { context_threshold: 80, max_restarts: 3 } },
  { type: 'phase_started', phaseId: '1', title: 'Set up' },
  { type: 'attempt_started', phaseId: '1', attemptId: 'a1', kind: 'initial', restart: 0, retry: 0 },
  { type: 'session_started', phaseId: '1', attemptId: 'a1', sessionIndex: 1, agentPid: 100, promptChars: 10 },
  { type: 'context_crossed', phaseId: '1', sessionIndex: 1, trigger: 'context', usedTokens: 165_000, contextWindow: 200_000, percent: 82.5, threshold: 80, toolCalls: 3, stopping: true },
  { type: 'stop_requested', phaseId: '1', sessionIndex: 1, reason: 'context threshold' },
  { type: 'session_ended', phaseId: '1', attemptId: 'a1', sessionIndex: 1, outcome: 'stopped', exitCode: 0, signal: null, peakContextTokens: 165_000, peakContextPercent: 82.5, contextWindow: 200_000, toolCalls: 3, costUsd: 0.25, inputTokens: 1000, outputTokens: 200, durationMs: 4000 },
  { type: 'commit', phaseId: '1', sha: 'abcdef0123456789', message: 'debussy: checkpoint phase 1', files: 2, purpose: 'checkpoint' },
  { type: 'commit_failed', phaseId: '1', message: 'pre-commit hook said: no, really' },
  { type: 'restart', phaseId: '1', restart: 1, maxRestarts: 3, reason: 'context threshold', checkpointChars: 500 },
  { type: 'attempt_started', phaseId: '1', attemptId: 'a2', kind: 'restart', restart: 1, retry: 0 },
  { type: 'session_started', phaseId: '1', attemptId: 'a2', sessionIndex: 2, agentPid: 101, promptChars: 10 },
  { type: 'session_ended', phaseId: '1', attemptId: 'a2', sessionIndex: 2, outcome: 'completed', exitCode: 0, signal: null, peakContextTokens: 20_000, peakContextPercent: 10, contextWindow: 200_000, toolCalls: 1, costUsd: 0.5, inputTokens: 300, outputTokens: 100, durationMs: 2000 },
  { type: 'phase_ended', phaseId: '1', status: 'completed' },
  { type: 'phase_started', phaseId: '2', title: 'Build the thing' },
  { type: 'attempt_started', phaseId: '2', attemptId: 'b1', kind: 'initial', restart: 0, retry: 0 },
  { type: 'phase_ended', phaseId: '2', status: 'failed', reason: 'gates failed: tests, 50% done\nsee log' },
  { type: 'run_ended', status: 'failed', exitCode: 1, reason: 'not complete: 2 failed' },
];

export function journalOf(events: NewJournalEvent[] = RESTART_THEN_FAIL): JournalEvent[] {
  return stamp(events);
}

export function stateOf(events: NewJournalEvent[] = RESTART_THEN_FAIL): RunState {
  const state = foldRun(stamp(events));
  if (!state) throw new Error('no run_started');
  return state;
}

export function snapshot(partial: Partial<ContextSnapshot> = {}): ContextSnapshot {
  const usedTokens = partial.usedTokens ?? 50_000;
  const contextWindow = 'contextWindow' in partial ? partial.contextWindow : 200_000;
  const percent = contextWindow ? (usedTokens / contextWindow) * 100 : 0;
  return { usedTokens, reportedTokens: usedTokens, projectedExtraTokens: 0, contextWindow, percent, toolCalls: 2, peakTokens: usedTokens, peakPercent: percent, turns: 1, ...partial };
}

export const AGENT_EVENTS: AgentEvent[] = [
  { type: 'init', sessionId: 's1', model: 'claude-sonnet-5', tools: [] },
  { type: 'assistant_text', messageId: 'm1', text: 'Let me look at the \x1b[31mtests\x1b[0m first.\nThen fix them.' },
  { type: 'tool_start', messageId: 'm1', toolUseId: 't1', name: 'Bash', input: { command: 'npm test' }, summary: 'Bash: npm test' },
  { type: 'tool_result', toolUseId: 't1', isError: true, text: '\x1b[1mFAIL\x1b[22m test/x.test.ts\nmore' },
  { type: 'tool_result', toolUseId: 't2', isError: false, text: 'ok' },
  { type: 'api_retry', attempt: 1, maxRetries: 3, delayMs: 2000, errorStatus: 529 },
  { type: 'compaction', stage: 'boundary', preTokens: 150_000, postTokens: 20_000 },
];
