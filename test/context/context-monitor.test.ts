import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
  // usage() reports claude-opus-4-8: its prior is 1.6 x cl100k + 75 per call (model-priors.ts).
  const FACTOR = 1.6;

  it('is the last reported usage plus a calibrated count of what entered since, plus one round trip', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    const said = 'I will list the files and then read the README to see what the project does.';
    const input = { command: 'ls -la', description: 'List files' };
    const output = 'total 8\ndrwxr-xr-x 2 root root 4096 .\n-rw-r--r-- 1 root root 12 README.md\n';
    feed(usage('m1', 1_000, 20_000, 500), text(said), toolStart('t1', 'Bash', input), toolResult('t1', output));
    const counted = countTokens(said) + countTokens('Bash') + countTokens(JSON.stringify(input)) + countTokens(output);
    const extra = Math.round(FACTOR * counted + OVERHEAD);
    expect(m.snapshot()).toEqual({
      usedTokens: 21_500 + extra,
      reportedTokens: 21_500,
      projectedExtraTokens: extra,
      contextWindow: 100_000,
      percent: ((21_500 + extra) / 100_000) * 100,
      limit: { tokens: 80_000, source: 'context_threshold' },
      toolCalls: 1,
      peakTokens: 21_500 + extra,
      peakPercent: ((21_500 + extra) / 100_000) * 100,
      turns: 1,
    });
  });

  it("takes the model's own output from the final output_tokens once the response ended", () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    const said = 'short text that the thinking behind it dwarfs';
    const result = 'file contents '.repeat(100);
    feed(usage('m1', 10_000), text(said), toolStart('t1', 'Read', { file_path: '/a' }));
    const before = m.snapshot().projectedExtraTokens;
    expect(before).toBe(Math.round(FACTOR * (countTokens(said) + countTokens('Read') + countTokens(JSON.stringify({ file_path: '/a' }))) + OVERHEAD));
    feed({ type: 'output_usage', outputTokens: 900 }, toolResult('t1', result));
    expect(m.snapshot().projectedExtraTokens).toBe(Math.round(900 + FACTOR * countTokens(result) + OVERHEAD));
  });

  it('learns from each pair of reports: the next projection uses what the last growth taught', () => {
    const { m, feed } = monitor({ contextWindowOverride: 1_000_000 });
    const file = 'export function add(a: number, b: number): number { return a + b; }\n'.repeat(150);
    const counted = countTokens(file);
    let reported = 10_000;
    feed(usage('m0', reported));
    // The server's truth: 1.3 x cl100k + 70 per call, output 50 (the prior: 1.6 + 75).
    for (let i = 1; i <= 8; i++) {
      feed({ type: 'output_usage', outputTokens: 50 }, toolStart(`t${i}`, 'Read', { file_path: '/f' }), toolResult(`t${i}`, file));
      const projected = m.snapshot().usedTokens;
      reported += Math.round(50 + 1.3 * counted + 70);
      if (i === 1) expect(Math.abs(projected - reported) / reported).toBeGreaterThan(0.05);
      if (i === 8) expect(Math.abs(projected - reported) / reported).toBeLessThan(0.005);
      feed(usage(`m${i}`, reported));
    }
  });

  it('starts over from each new report (each message id is one turn)', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    feed(usage('m1', 10_000), toolStart('t1', 'Read', { file_path: '/a' }), toolResult('t1', 'x '.repeat(3000)), usage('m2', 13_100));
    const snap = m.snapshot();
    expect(snap).toMatchObject({ reportedTokens: 13_100, turns: 2, toolCalls: 1 });
    expect(snap.projectedExtraTokens).toBeLessThan(200);
    expect(snap.peakTokens).toBe(snap.usedTokens);
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
    expect(m.snapshot()).toMatchObject({ usedTokens: 5_000 + OVERHEAD, projectedExtraTokens: OVERHEAD, toolCalls: 0 });
  });

  it('takes the compacted size after a compaction and keeps the peak', () => {
    const { m, feed } = monitor({ contextWindowOverride: 100_000 });
    feed(usage('m1', 70_000), { type: 'compaction', stage: 'started' }, { type: 'compaction', stage: 'boundary', preTokens: 70_000, postTokens: 3_000 });
    expect(m.snapshot()).toMatchObject({ usedTokens: 3_000 + OVERHEAD, reportedTokens: 3_000, peakTokens: 70_000, peakPercent: 70 });
  });
});

const OVERHEAD = 75;

describe('ContextMonitor crossing', () => {
  it('fires once, with the numbers, when the reported usage crosses', () => {
    const { crossings, feed } = monitor({ contextWindowOverride: 200_000 });
    feed(usage('m1', 100_000));
    expect(crossings).toHaveLength(0);
    feed(usage('m2', 161_000), usage('m3', 190_000), toolStart('t', 'Bash', {}));
    expect(crossings).toHaveLength(1);
    expect(crossings[0]).toMatchObject({ trigger: 'context', reportedTokens: 161_000, usedTokens: 161_075, percent: 80.5375, contextWindow: 200_000, threshold: 80, turns: 2 });
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
    expect(crossings[0]).toMatchObject({ trigger: 'tool_calls', toolCalls: 3, threshold: 3 });
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
    expect(m.snapshot()).toMatchObject({ contextWindow: 50_000, reportedTokens: 10_000, limit: { tokens: 40_000, source: 'context_threshold' } });
  });

  it('from the init model, whose [1m] marker the API model name lacks', () => {
    const { m, feed } = monitor();
    feed(init('claude-opus-4-8[1m]'), usage('m1', 250_000, 0, 0, 'claude-opus-4-8'));
    expect(m.snapshot()).toMatchObject({ contextWindow: 1_000_000, reportedTokens: 250_000, limit: { tokens: 800_000, source: 'context_threshold' } });
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
    expect(m.snapshot()).toMatchObject({ contextWindow: 100_000, reportedTokens: 90_000, percent: 90.07, peakPercent: 90.07 });
    expect(crossings).toHaveLength(0);
  });

  it('follows a model fallback', () => {
    const { m, feed } = monitor();
    feed(init('claude-opus-4-8[1m]'), { type: 'model_fallback', from: 'claude-opus-4-8[1m]', to: 'claude-sonnet-4-5' }, usage('m1', 100_000));
    expect(m.snapshot()).toMatchObject({ contextWindow: 200_000, reportedTokens: 100_000 });
  });
});

describe('ContextMonitor limit: context_threshold or max_context_tokens, whichever comes first', () => {
  it('max_context_tokens stops a 1M window long before 80% of it', () => {
    const { m, crossings, feed } = monitor({ maxContextTokens: 300_000 });
    feed(init('claude-opus-4-8[1m]'), usage('m1', 250_000));
    expect(m.snapshot().limit).toEqual({ tokens: 300_000, source: 'max_context_tokens' });
    expect(crossings).toHaveLength(0);
    feed(usage('m2', 300_500));
    expect(crossings).toHaveLength(1);
    expect(crossings[0]).toMatchObject({ trigger: 'context', reportedTokens: 300_500, contextWindow: 1_000_000, limit: { tokens: 300_000, source: 'max_context_tokens' } });
  });

  it('the percentage wins where it is lower than the cap', () => {
    const { m, crossings, feed } = monitor({ maxContextTokens: 300_000 });
    feed(init('claude-sonnet-4-5'), usage('m1', 161_000, 0, 0, 'claude-sonnet-4-5'));
    expect(m.snapshot().limit).toEqual({ tokens: 160_000, source: 'context_threshold' });
    expect(crossings).toHaveLength(1);
  });

  it('the cap applies while the window is unknown, and with a threshold of 100', () => {
    const unknown = monitor({ maxContextTokens: 50_000 });
    unknown.feed(init('custom'), usage('m1', 60_000, 0, 0, 'custom'));
    expect(unknown.crossings.map((c) => c.limit)).toEqual([{ tokens: 50_000, source: 'max_context_tokens' }]);
    const off = monitor({ maxContextTokens: 50_000, thresholdPercent: 100, contextWindowOverride: 200_000 });
    off.feed(usage('m1', 60_000));
    expect(off.crossings).toHaveLength(1);
  });

  it('a resumed session keeps the window its attempt started with, though its init model lost the [1m] marker', () => {
    const { m, crossings, feed } = monitor({ inheritedContextWindow: 1_000_000 });
    // What claude 2.1.197 prints on --resume without --model: the plain name, 200,000 in its result.
    feed(init('claude-opus-4-8'), usage('m1', 300_000), result(200_000));
    expect(m.snapshot()).toMatchObject({ contextWindow: 1_000_000, limit: { tokens: 800_000, source: 'context_threshold' } });
    expect(m.snapshot().percent).toBeLessThan(31);
    expect(crossings).toHaveLength(0);
    const override = monitor({ inheritedContextWindow: 1_000_000, contextWindowOverride: 500_000 });
    expect(override.m.snapshot().contextWindow).toBe(500_000);
  });
});

describe('ContextMonitor calibration across a model switch', () => {
  it('a pair across two models teaches neither; the new model is projected with its own prior', () => {
    const { m, feed } = monitor({ contextWindowOverride: 1_000_000 });
    const file = 'const value = compute(input, options); // a line of code\n'.repeat(120);
    const counted = countTokens(file);
    feed(usage('a1', 20_000, 0, 0, 'claude-opus-4-6'), toolStart('t1', 'Read', { file_path: '/f' }), toolResult('t1', file));
    // Across the switch the context grew by 3 x what entered: no model may learn that.
    feed(usage('b1', 20_000 + 3 * counted, 0, 0, 'claude-haiku-4-5-20251001'));
    const calibration = m.tokenCalibration;
    expect(calibration.factorFor('claude-opus-4-6')).toBeCloseTo(1.2, 10);
    expect(calibration.factorFor('claude-haiku-4-5-20251001')).toBeCloseTo(1.2, 10);
    feed(toolStart('t2', 'Read', { file_path: '/f' }), toolResult('t2', file));
    // haiku-4-5's prior: 1.2 x cl100k + 120 per call.
    expect(m.snapshot().projectedExtraTokens).toBe(Math.round(1.2 * (countTokens('Read') + countTokens(JSON.stringify({ file_path: '/f' })) + counted) + 120));
  });
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('ContextMonitor learning from pairs counted with bounded work', () => {
  // Large tool results (20-90 KB of a corpus of this repository's sources and docs, frozen in
  // test/fixtures/calibration/corpus.txt: read live, every edit of a doc moved the figure) enter
  // between reports that grow by 1.4 x their exact cl100k count + 75. One monitor has every pair
  // counted exactly first (as the display or `debussy replay` does before each report); the other
  // counts each pair only when the next report arrives, with bounded work (pending-count.ts). Both
  // must learn the same, within what sampling allows: over six versions of that corpus (the files
  // as they stood at six commits of 2026-11-23/24) the bounded monitor came within 0.4-6.3%.
  const corpus = readFileSync(path.join(ROOT, 'test', 'fixtures', 'calibration', 'corpus.txt'), 'utf8');

  function learned(exactFirst: boolean): number {
    const { m, feed } = monitor({ thresholdPercent: 100, toolCallThreshold: 0 });
    let context = 30_000;
    feed(usage('r0', 1_000, context - 1_000));
    for (let i = 1; i <= 12; i++) {
      const size = 20_000 + ((i * 7_919) % 70_000);
      const at = (i * 104_729) % Math.max(1, corpus.length - size);
      const read = corpus.slice(at, at + size);
      feed(toolStart(`t${i}`, 'Read', { file_path: `f${i}` }), toolResult(`t${i}`, read));
      if (exactFirst) m.snapshot();
      context += Math.round(1.4 * (countTokens('Read') + countTokens(JSON.stringify({ file_path: `f${i}` })) + countTokens(read))) + 75;
      feed(usage(`r${i}`, 1_000, context - 1_000));
    }
    return m.tokenCalibration.factorFor('claude-opus-4-8');
  }

  it('learns within 8% of what exact counting learns (which is the true 1.4)', () => {
    const exact = learned(true);
    const bounded = learned(false);
    expect(Math.abs(exact - 1.4) / 1.4).toBeLessThan(0.005);
    // Each sampled 20-90 KB text is off by up to ~10%; 12 pairs average part of it out (1.31 here).
    expect(Math.abs(bounded - exact) / exact).toBeLessThan(0.08);
  });
});
