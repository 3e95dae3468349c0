import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { ACTIVITY_LINES, ActivityTrail, activityFromStreamLog, describeActivity } from '../../src/checkpoint/last-activity.js';

const STREAMS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'streams', '2.1.197');

describe('describeActivity', () => {
  it.each<[string, AgentEvent, string | undefined]>([
    ['a tool call', { type: 'tool_start', toolUseId: 't', name: 'Bash', summary: 'Bash: npm test', input: {} } as unknown as AgentEvent, 'Bash: npm test'],
    ['text, one line', { type: 'assistant_text', text: ' Now\n the  tests ' } as unknown as AgentEvent, 'said: Now the tests'],
    ['empty text', { type: 'assistant_text', text: '  ' } as unknown as AgentEvent, undefined],
    // The whole message on one line, as the reporters show it: the first line alone is often just "Exit code 1".
    ['a tool error, folded', { type: 'tool_result', toolUseId: 't', isError: true, text: 'Exit code 1\nFAIL x' } as unknown as AgentEvent, 'tool error: Exit code 1 FAIL x'],
    ['an API error', { type: 'api_error', errorType: 'rate_limit', text: 'API Error: 429\nslow down' } as unknown as AgentEvent, 'API error rate_limit: API Error: 429 slow down'],
    ['a retry: not a step', { type: 'api_retry', attempt: 1, maxRetries: 10, delayMs: 500, errorStatus: 529 } as unknown as AgentEvent, undefined],
    ['escape sequences are removed', { type: 'assistant_text', text: 'done \u001b[31mred\u001b[0m' } as unknown as AgentEvent, 'said: done red'],
    ['a successful result', { type: 'tool_result', toolUseId: 't', isError: false, text: 'ok' } as unknown as AgentEvent, undefined],
  ])('%s', (_name, event, line) => {
    expect(describeActivity(event)).toBe(line);
  });

  it('keeps the last lines only', () => {
    const trail = new ActivityTrail();
    for (let i = 0; i < ACTIVITY_LINES + 3; i++) trail.observe({ type: 'assistant_text', text: `step ${i}` } as unknown as AgentEvent);
    expect(trail.lines()).toHaveLength(ACTIVITY_LINES);
    expect(trail.lines().at(-1)).toBe(`said: step ${ACTIVITY_LINES + 2}`);
  });
});

describe('activityFromStreamLog', () => {
  it('reads the steps back from a recorded stream', async () => {
    const lines = await activityFromStreamLog(path.join(STREAMS, 'auto-compaction.ndjson'));
    expect(lines).toEqual(['Bash: echo one', 'Bash: echo two', 'said: continued']);
  });

  it('a missing log: nothing known', async () => {
    expect(await activityFromStreamLog(path.join(STREAMS, 'no-such.ndjson'))).toEqual([]);
  });
});
