import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { STREAM_FIXTURES_DIR, loadFixtureExit, loadStreamFixture } from '../support/fixtures.js';
import { initLine, linesOfType, resultLine } from '../support/stream-lines.js';

// What each recorded fixture must show; parser tests elsewhere rely on these facts.
const expected: Record<string, { exitCode: number; result: Record<string, unknown>; has?: Array<[string, string?]> }> = {
  'tool-use-session': { exitCode: 0, result: { subtype: 'success', is_error: false, terminal_reason: 'completed' }, has: [['user'], ['stream_event']] },
  'multi-tool-session': { exitCode: 0, result: { subtype: 'success', is_error: false }, has: [['user']] },
  'api-error-529': { exitCode: 1, result: { is_error: true, api_error_status: 529 } },
  'api-error-429-retry': { exitCode: 1, result: { is_error: true, api_error_status: 429 }, has: [['system', 'api_retry']] },
  'api-error-401': { exitCode: 1, result: { is_error: true, api_error_status: 401 } },
  'prompt-too-long': { exitCode: 1, result: { is_error: true, api_error_status: 400, terminal_reason: 'prompt_too_long' } },
  'dropped-stream': { exitCode: 0, result: { is_error: false } },
  'auto-compaction': { exitCode: 0, result: { is_error: false }, has: [['system', 'compact_boundary']] },
  'stall-then-server-closed': { exitCode: 1, result: { is_error: true, api_error_status: null } },
  'sigint-during-tool': { exitCode: 1, result: { subtype: 'error_during_execution', terminal_reason: 'aborted_tools' } },
  'sigint-waiting-for-api': { exitCode: 0, result: { subtype: 'error_during_execution', terminal_reason: 'aborted_streaming' } },
};

describe('recorded stream fixtures', () => {
  it('are exactly the documented set', async () => {
    const names = (await readdir(STREAM_FIXTURES_DIR)).filter((f) => f.endsWith('.ndjson')).map((f) => f.replace(/\.ndjson$/, ''));
    expect(names.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s starts with init, parses, and ends as documented', async (name, want) => {
    const lines = await loadStreamFixture(name);
    expect(lines.every((l) => typeof l === 'object')).toBe(true);
    expect(lines[0]).toBe(initLine(lines));
    expect(initLine(lines)).toMatchObject({ claude_code_version: expect.any(String) as string, model: expect.any(String) as string });
    expect(resultLine(lines)).toMatchObject(want.result);
    expect((await loadFixtureExit(name)).exitCode).toBe(want.exitCode);
    for (const [type, subtype] of want.has ?? []) expect(linesOfType(lines, type, subtype).length).toBeGreaterThan(0);
  });
});
