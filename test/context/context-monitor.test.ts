import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.js';
import { ContextMonitor, countTokens, type ContextCrossing, type ContextMonitorOptions } from '../../src/context/index.js';

function monitor(options: Partial<ContextMonitorOptions> = {}) {
  const crossings: ContextCrossing[] = [];
  const m = new ContextMonitor({
    thresholdPercent: 80,
    toolCallThreshold: 100,
    onLimit: (c) => crossings.push(c),
    ...options,
  });
  const feed = (...events: AgentEvent[]) => events.forEach((e) => m.observe(e));
  return { m, crossings, feed };
}

const init = (model: string): AgentEvent => ({ type: 'init', sessionId: 's', model, tools: [] });
const usage = (id: string, input: number, read = 0, write = 0, model = 'claude-opus-4-8'): AgentEvent => ({
  type: 'usage',
  messageId: id,
  model,
  inputTokens: input,
  cacheReadTokens: read,
  cacheCreationTokens: write,
  contextTokens: input + read + write,
});
const text = (t: string, parentToolUseId?: string): AgentEvent => ({ type: 'assistant_text', messageId: 'm', text: t, ...(parentToolUseId ? { parentToolUseId } : {}) });
const toolStart = (id: string, name: string, input: unknown, parentToolUseId?: string): AgentEvent => ({
  type: 'tool_start',
  messageId: 'm',
  toolUseId: id,
  name,
  input,
  summary: name,
  ...(parentToolUseId ? { parentToolUseId } : {}),
});
const toolResult = (id: string, t: string, parentToolUseId?: string): AgentEvent => ({
  type: 'tool_result',
  toolUseId: id,
  isError: false,
  text: t,
  ...(parentToolUseId ? { parentToolUseId } : {}),
});
const result = (contextWindow?: number): AgentEvent => ({
  type: 'result',
  subtype: 'success',
  isError: false,
  costUsd: 0,
  inputTokens: 0,
  outputTokens: 0,
  ...(contextWindow === undefined ? {} : { contextWindow }),
});

describe('ContextMonitor projection', () => {
  it('is the last reported usage plus the tokens that entered the context since', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    const said = 'I will list the files and then read the README to see what the project does.';
    const input = { command: 'ls -la', description: 'List files' };
    const output = 'total 8\ndrwxr-xr-x 2 root root 4096 .\n-rw-r--r-- 1 root root 12 README.md\n';
    feed(usage('m1', 1_000, 20_000, 500), text(said), toolStart('t1', 'Bash', input), toolResult('t1', output));
    const extra = countTokens(said) + countTokens('Bash') + countTokens(JSON.stringify(input)) + countTokens(output);
    expect(m.snapshot()).toEqual({
      usedTokens: 21_500 + extra,
      reportedTokens: 21_500,
      projectedExtraTokens: extra,
      contextWindow: 100_000,
      percent: ((21_500 + extra) / 100_000) * 100,
      toolCalls: 1,
      peakTokens: 21_500 + extra,
      peakPercent: ((21_500 + extra) / 100_000) * 100,
      turns: 1,
    });
  });

  it('starts over from each new report (each message id is one turn)', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    feed(usage('m1', 10_000), toolStart('t1', 'Read', { file_path: '/a' }), toolResult('t1', 'x '.repeat(3000)), usage('m2', 13_100));
    const snap = m.snapshot();
    expect(snap).toMatchObject({ usedTokens: 13_100, reportedTokens: 13_100, projectedExtraTokens: 0, turns: 2, toolCalls: 1 });
    // The peak saw the projection before the new report only if someone looked; the reports themselves always count.
    expect(snap.peakTokens).toBe(13_100);
  });

  it('counts a Bash output over 30,000 characters as the preview the model sees', () => {
    const { m, feed } = monitor({ contextWindowOverride: 1_000_000 });
    const huge = 'line of build output number something\n'.repeat(2_000);
    feed(usage('m1', 1_000), toolStart('t1', 'Bash', { command: 'make' }), toolResult('t1', huge));
    const bash = m.snapshot().projectedExtraTokens;
    const { m: m2, feed: feed2 } = monitor({ contextWindowOverride: 1_000_000 });
    feed2(usage('m1', 1_000), toolStart('t1', 'Read', { file_path: '/log' }), toolResult('t1', huge));
    expect(countTokens(huge)).toBeGreaterThan(10_000);
    expect(bash).toBeLessThan(1_000);
    expect(m2.snapshot().projectedExtraTokens).toBeGreaterThan(10_000);
  });

  it('leaves subagent messages out: they are not in the main context', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    feed(usage('m1', 5_000), text('long subagent musing '.repeat(200), 'task1'), toolStart('s1', 'Read', { file_path: '/x' }, 'task1'), toolResult('s1', 'y'.repeat(5000), 'task1'));
    expect(m.snapshot()).toMatchObject({ usedTokens: 5_000, toolCalls: 0 });
  });

  it('takes the compacted size after a compaction and keeps the peak', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    feed(usage('m1', 70_000), { type: 'compaction', stage: 'started' }, { type: 'compaction', stage: 'boundary', preTokens: 70_000, postTokens: 3_000 });
    expect(m.snapshot()).toMatchObject({ usedTokens: 3_000, peakTokens: 70_000, peakPercent: 70 });
  });
});

describe('ContextMonitor crossing', () => {
  it('fires once, with the numbers, when the reported usage crosses', () => {
    const { crossings, feed } = monitor({ contextWindowOverride: 200_000 });
    feed(usage('m1', 100_000));
    expect(crossings).toHaveLength(0);
    feed(usage('m2', 161_000), usage('m3', 190_000), toolStart('t', 'Bash', {}));
    expect(crossings).toHaveLength(1);
    expect(crossings[0]).toMatchObject({ trigger: 'context', usedTokens: 161_000, percent: 80.5, contextWindow: 200_000, thresholdPercent: 80, toolCallThreshold: 100, turns: 2 });
  });

  it('fires on the projection: a tool result that pushes the next request over the threshold', () => {
    const { crossings, feed } = monitor({ contextWindowOverride: 10_000 });
    feed(usage('m1', 7_500), toolStart('t1', 'Read', { file_path: '/big' }));
    expect(crossings).toHaveLength(0);
    const output = 'some words of a file that is rather long '.repeat(80);
    feed(toolResult('t1', output));
    expect(crossings).toHaveLength(1);
    expect(crossings[0]?.trigger).toBe('context');
    expect(crossings[0]?.reportedTokens).toBe(7_500);
    expect(crossings[0]?.usedTokens).toBeGreaterThanOrEqual(8_000);
  });

  it('does not fire below the threshold however many events come', () => {
    const { crossings, feed } = monitor({ contextWindowOverride: 200_000 });
    for (let i = 0; i < 50; i++) feed(usage(`m${i}`, 1_000 + i * 3_000), text('ok'));
    expect(crossings).toHaveLength(0);
  });

  it('falls back to the tool-call count', () => {
    const { crossings, feed } = monitor({ contextWindowOverride: 1_000_000, toolCallThreshold: 3 });
    feed(usage('m1', 1_000), toolStart('a', 'Bash', {}), toolStart('b', 'Bash', {}));
    expect(crossings).toHaveLength(0);
    feed(toolStart('c', 'Bash', {}), toolStart('d', 'Bash', {}));
    expect(crossings).toHaveLength(1);
    expect(crossings[0]).toMatchObject({ trigger: 'tool_calls', toolCalls: 3, toolCallThreshold: 3 });
  });

  it('counts tool calls even when no window is known', () => {
    const { m, crossings, feed } = monitor({ toolCallThreshold: 2 });
    feed(init('mystery-model'), usage('m1', 900_000, 0, 0, 'mystery-model'), toolStart('a', 'Bash', {}), toolStart('b', 'Bash', {}));
    expect(m.snapshot()).toMatchObject({ contextWindow: undefined, percent: 0 });
    expect(crossings.map((c) => c.trigger)).toEqual(['tool_calls']);
  });

  it('never reports a context crossing with a threshold of 100 or more', () => {
    const { m, crossings, feed } = monitor({ contextWindowOverride: 100_000, thresholdPercent: 100 });
    feed(usage('m1', 150_000), text('more'));
    expect(crossings).toHaveLength(0);
    expect(m.snapshot().percent).toBeGreaterThan(100);
  });

  it('a tool-call threshold of 0 is off', () => {
    const { crossings, feed } = monitor({ contextWindowOverride: 100_000, toolCallThreshold: 0 });
    feed(usage('m1', 1), toolStart('a', 'Bash', {}));
    expect(crossings).toHaveLength(0);
  });
});

describe('ContextMonitor window', () => {
  it('the override wins over everything', () => {
    const { m, feed } = monitor({ contextWindowOverride: 50_000 });
    feed(init('claude-opus-4-8[1m]'), usage('m1', 10_000), result(1_000_000));
    expect(m.snapshot()).toMatchObject({ contextWindow: 50_000, percent: 20 });
  });

  it('from the init model, whose [1m] marker the API model name lacks', () => {
    const { m, feed } = monitor();
    feed(init('claude-opus-4-8[1m]'), usage('m1', 250_000, 0, 0, 'claude-opus-4-8'));
    expect(m.snapshot()).toMatchObject({ contextWindow: 1_000_000, percent: 25 });
  });

  it('from the usage model when init named an unknown one', () => {
    const { m, feed } = monitor();
    feed(init('custom-deployment'), usage('m1', 20_000, 0, 0, 'claude-sonnet-4-5'));
    expect(m.snapshot().contextWindow).toBe(200_000);
  });

  it('from the result when nothing else told', () => {
    const { m, crossings, feed } = monitor();
    feed(init('custom'), usage('m1', 90_000, 0, 0, 'custom'));
    expect(m.snapshot().contextWindow).toBeUndefined();
    feed(result(100_000));
    expect(m.snapshot()).toMatchObject({ contextWindow: 100_000, percent: 90, peakPercent: 90 });
    expect(crossings).toHaveLength(0);
  });

  it('follows a model fallback', () => {
    const { m, feed } = monitor();
    feed(init('claude-opus-4-8[1m]'), { type: 'model_fallback', from: 'claude-opus-4-8[1m]', to: 'claude-sonnet-4-5' }, usage('m1', 100_000));
    expect(m.snapshot()).toMatchObject({ contextWindow: 200_000, percent: 50 });
  });
});
