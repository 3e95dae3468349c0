import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newStreamParseState, parseStreamLine, type AgentEvent } from '../../src/agent/index.js';
import { describeRefusals, isPermissionRefusal, RefusalTracker } from '../../src/agent/refusals.js';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'permissions', 'refusals.ndjson');

function eventsOf(lines: string[]): AgentEvent[] {
  const state = newStreamParseState();
  return lines.flatMap((line) => parseStreamLine(line, state));
}

describe('isPermissionRefusal', () => {
  it.each([
    ['This command requires approval', true],
    ['Error: This command requires approval', true],
    ['This Bash command contains multiple operations. The following part requires approval: debussy progress --phase 1', true],
    ["Claude requested permissions to write to /tmp/p/src/x.ts, but you haven't granted it yet.", true],
    ["Claude requested permissions to use WebFetch, but you haven't granted it yet.", true],
    ['Permission to use Bash with command npm test has been denied.', true],
    ['Cannot write to /tmp/p/src/x.ts while in plan mode.', true],
    ["Permission to use Write has been denied because Claude Code is running in don't ask mode. IMPORTANT: You *may* attempt", true],
    ['npm ERR! missing script: test', false],
    ['<tool_use_error>File does not exist.</tool_use_error>', false],
    ['PreToolUse:Bash hook error: [sh]: debussy: this session is stopping', false],
    ['Exit code 1\nthe approval workflow failed', false],
  ])('%s -> %s', (text, refused) => {
    expect(isPermissionRefusal(text)).toBe(refused);
  });
});

describe('RefusalTracker', () => {
  it('reads the refusals of a recorded real-CLI session: tool errors and permission_denials, each call once', () => {
    const tracker = new RefusalTracker();
    const events = eventsOf(readFileSync(FIXTURE, 'utf8').split('\n'));
    const result = events.find((e) => e.type === 'result');
    expect(result?.type === 'result' ? result.permissionDenials?.map((d) => d.toolName) : undefined).toEqual(['Write', 'Bash', 'Bash']);
    for (const event of events) tracker.observe(event);
    expect(tracker.refusals().map((r) => r.summary)).toEqual(['Write: src/x.ts', 'Bash: npm test', 'Bash: debussy done --phase 1']);
  });

  it('counts refusals seen only as tool errors (a session stopped before its result)', () => {
    const tracker = new RefusalTracker();
    tracker.observe({ type: 'tool_start', messageId: 'm', toolUseId: 't1', name: 'Bash', input: { command: 'npm test' }, summary: 'Bash: npm test' });
    tracker.observe({ type: 'tool_result', toolUseId: 't1', isError: true, text: 'This command requires approval' });
    tracker.observe({ type: 'tool_start', messageId: 'm', toolUseId: 't2', name: 'Bash', input: { command: 'false' }, summary: 'Bash: false' });
    tracker.observe({ type: 'tool_result', toolUseId: 't2', isError: true, text: 'Exit code 1' });
    expect(tracker.refusals()).toEqual([{ toolUseId: 't1', summary: 'Bash: npm test' }]);
  });

  it('leaves out calls a PreToolUse hook blocked (listed in permission_denials too) and subagent calls', () => {
    const tracker = new RefusalTracker();
    tracker.observe({ type: 'tool_start', messageId: 'm', toolUseId: 'h', name: 'Bash', input: { command: 'ls' }, summary: 'Bash: ls' });
    tracker.observe({ type: 'tool_result', toolUseId: 'h', isError: true, text: 'PreToolUse:Bash hook error: [test -e x]: debussy: this session is stopping\n' });
    tracker.observe({ type: 'tool_result', toolUseId: 's', isError: true, text: 'This command requires approval', parentToolUseId: 'task' });
    tracker.observe({
      type: 'result', subtype: 'success', isError: false, costUsd: 0, inputTokens: 0, outputTokens: 0,
      permissionDenials: [{ toolName: 'Bash', toolUseId: 'h', input: { command: 'ls' } }, { toolName: 'Edit', toolUseId: 'e', input: { file_path: '/p/a.ts' } }],
    });
    expect(tracker.refusals().map((r) => r.summary)).toEqual(['Edit: /p/a.ts']);
  });
});

describe('describeRefusals', () => {
  it.each([
    [['Bash: npm test'], 'claude refused 1 tool call (Bash: npm test)'],
    [['Bash: npm test', 'Bash: npm test', 'Write: src/x.ts'], 'claude refused 3 tool calls (Bash: npm test, Write: src/x.ts)'],
    [['A', 'B', 'C', 'D', 'E', 'F', 'A'], 'claude refused 7 tool calls (A, B, C, D, ...)'],
  ])('%j', (summaries, text) => {
    expect(describeRefusals(summaries)).toBe(text);
  });
});
