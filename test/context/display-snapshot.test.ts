import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.js';
import { ContextMonitor, createDisplaySnapshot } from '../../src/context/index.js';

const usage = (id: string, tokens: number): AgentEvent => ({ type: 'usage', messageId: id, model: 'claude-sonnet-5', inputTokens: tokens, cacheReadTokens: 0, cacheCreationTokens: 0, contextTokens: tokens });
const text = (t: string): AgentEvent => ({ type: 'assistant_text', messageId: 'm1', text: t });

describe('createDisplaySnapshot', () => {
  it('refreshes on usage and after the refresh interval, and reuses the last figures in between', () => {
    let now = 1000;
    const monitor = new ContextMonitor({ thresholdPercent: 80, toolCallThreshold: 100, onLimit: () => undefined });
    const display = createDisplaySnapshot(monitor, 250, () => now);
    monitor.observe(usage('m1', 20_000));
    expect(display(usage('m1', 20_000)).reportedTokens).toBe(20_000);
    const first = monitor.snapshot().usedTokens;
    const long = 'word '.repeat(2000);
    monitor.observe(text(long));
    now += 100;
    expect(display(text(long)).usedTokens).toBe(first); // within the interval: unchanged
    now += 200;
    const refreshed = display(text(long)).usedTokens;
    expect(refreshed).toBeGreaterThan(first + 2_000); // past the interval: the text is counted
    expect(refreshed).toBe(monitor.snapshot().usedTokens);
    monitor.observe(usage('m2', 50_000));
    expect(display(usage('m2', 50_000)).reportedTokens).toBe(50_000); // usage refreshes at once
  });
});
