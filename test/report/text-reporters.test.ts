/* eslint-disable no-control-regex -- these tests are about escape sequences */
import { describe, expect, it } from 'vitest';
import { createColors } from '../../src/report/color.js';
import { JsonReporter } from '../../src/report/json-reporter.js';
import { PlainReporter } from '../../src/report/plain-reporter.js';
import { combineReporters } from '../../src/report/reporter.js';
import { COST_FOOTNOTE, renderMarkdownSummary, renderRunSummary, summarizeRun } from '../../src/report/run-summary.js';
import { AGENT_EVENTS, journalOf, RESTART_THEN_FAIL, snapshot, START_INFO, stateOf, T0 } from './run-events.js';

const ESCAPE = /[\x1b\x9b]/;

/** Drives a reporter through the whole sample run. */
function drive(reporter: ReturnType<typeof combineReporters>): void {
  const journal = journalOf();
  reporter.notice('warning', 'reclaimed a stale lock');
  reporter.journal(journal[0]!);
  reporter.runStarted(START_INFO);
  for (const event of journal.slice(1, 4)) reporter.journal(event);
  for (const event of AGENT_EVENTS) reporter.agent('1', event, snapshot());
  for (const event of journal.slice(4)) reporter.journal(event);
  reporter.runFinished(stateOf(), 'debussy run plans/demo/MASTER_PLAN.md');
  reporter.close();
}

describe('PlainReporter', () => {
  it('writes one timestamped line per event and never an escape sequence, even from the agent', () => {
    let out = '';
    drive(combineReporters([new PlainReporter((t) => (out += t), { verbose: false, timestamps: true })]));
    expect(out).not.toMatch(ESCAPE);
    expect(out).toMatch(/^\d\d:\d\d:\d\d warning: reclaimed a stale lock$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d {3}1 \[ctx 25%\] Bash: npm test$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d {3}1 \[ctx 25%\] tool error: FAIL test\/x.test.ts more$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d {3}1 \[ctx 25%\] Let me look at the tests first\. Then fix them\.$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d warning: phase 1: restart 1\/3 from a checkpoint \(context threshold\)$/m);
    expect(out).toContain('\nTo resume: debussy run plans/demo/MASTER_PLAN.md\n');
    expect(out).toContain(renderRunSummary(stateOf()));
  });

  it('--verbose prints the full text, continuation lines marked so none starts a log line', () => {
    let out = '';
    const reporter = new PlainReporter((t) => (out += t), { verbose: true, timestamps: true, now: () => T0 });
    reporter.agent('1', { type: 'assistant_text', messageId: 'm', text: 'first\n::error::injected\nthird' }, snapshot());
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('           | ::error::injected');
    for (const line of lines) expect(line.trimStart().startsWith('::')).toBe(false);
  });

  it('colours levels only when given colours, and then only with SGR codes', () => {
    let out = '';
    const reporter = new PlainReporter((t) => (out += t), { verbose: false, timestamps: false, colors: createColors(true) });
    reporter.notice('error', 'bad');
    reporter.runFinished(stateOf(), undefined);
    expect(out.startsWith('\x1b[31merror: bad\x1b[39m\n')).toBe(true);
    expect(out.replace(/\x1b\[\d+m/g, '')).not.toMatch(ESCAPE);
  });
});

describe('JsonReporter', () => {
  it('writes valid NDJSON: one object per line, each with type and ts, run_summary last', () => {
    let out = '';
    drive(combineReporters([new JsonReporter((t) => (out += t), { now: () => T0 })]));
    expect(out.endsWith('\n')).toBe(true);
    const records = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const record of records) {
      expect(typeof record.type).toBe('string');
      expect(Number.isFinite(Date.parse(String(record.ts)))).toBe(true);
    }
    const types = records.map((r) => r.type);
    expect(types[0]).toBe('notice');
    expect(types[1]).toBe('run_started');
    expect(types[2]).toBe('run_plan');
    expect(types.at(-1)).toBe('run_summary');
    expect(types.filter((t) => t === 'agent')).toHaveLength(5);
    for (const type of ['phase_started', 'attempt_started', 'session_started', 'context_crossed', 'restart', 'commit', 'commit_failed', 'phase_ended', 'run_ended']) {
      expect(types).toContain(type);
    }
    const agent = records.filter((r) => r.type === 'agent');
    expect(agent.map((r) => r.event)).toEqual(['assistant_text', 'tool_start', 'tool_error', 'api_retry', 'compaction']);
    expect(agent[1]).toMatchObject({ phaseId: '1', name: 'Bash', summary: 'Bash: npm test', context: { usedTokens: 50_000, contextWindow: 200_000, percent: 25, toolCalls: 2 } });
    expect(records.at(-1)).toMatchObject({
      status: 'failed', exitCode: 1, resumeCommand: 'debussy run plans/demo/MASTER_PLAN.md',
      totals: { attempts: 3, restarts: 1, costUsd: 0.75, commits: 1 },
      phases: [{ id: '1', status: 'completed', restarts: 1, peakContextPercent: 82.5 }, { id: '2', status: 'failed' }],
    });
  });
});

describe('the summary when a session was stopped before claude reported its cost', () => {
  // The first session was stopped for a restart: no result, so no cost; its tokens come from the stream.
  const stopped = RESTART_THEN_FAIL.map((event) =>
    event.type === 'session_ended' && event.sessionIndex === 1 ? { ...event, costUsd: 0, costUnknown: true } : event,
  );

  it('marks the cost as a lower bound in the table, the markdown and the JSON, and says why', () => {
    const state = stateOf(stopped);
    const table = renderRunSummary(state);
    expect(table).toMatch(/^1\s+completed\s+.*\$0\.50\+/m);
    expect(table).toMatch(/^total\s+.*\$0\.50\+/m);
    expect(table).toContain(COST_FOOTNOTE);
    const markdown = renderMarkdownSummary(state, undefined);
    expect(markdown).toContain('$0.50+');
    expect(markdown).toContain(COST_FOOTNOTE);
    expect(summarizeRun(state)).toMatchObject({ totals: { costUsd: 0.5, costComplete: false }, phases: [{ costComplete: false }, { costComplete: true }] });
    expect(state.phases['1']?.sessions[0]).toMatchObject({ costUnknown: true, inputTokens: 1000, outputTokens: 200 });
  });

  it('says nothing of it when every cost was reported', () => {
    const table = renderRunSummary(stateOf());
    expect(table).not.toContain('+');
    expect(table).not.toContain(COST_FOOTNOTE);
  });
});
