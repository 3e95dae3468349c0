import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { newStreamParseState, parseStreamLine } from '../../src/agent/claude/stream-parser.js';
import { STREAM_FIXTURES_DIR, loadFixtureExit, loadStreamFixture } from '../support/fixtures.js';
import { initLine, linesOfType, resultLine } from '../support/stream-lines.js';

interface Expected {
  exitCode: number;
  result: Record<string, unknown>;
  has?: Array<[string, string?]>;
}

// What each recorded fixture must show, for every claude version recorded; parser tests rely on these facts.
const expected: Record<string, Expected> = {
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

/** Where a version differs from the table above. */
const byVersion: Record<string, Record<string, Partial<Expected>>> = {
  '2.1.197': {},
  '2.1.332': {
    // API failures end with terminal_reason api_error (2.1.197: completed); SIGINT during a tool exits 0 (2.1.197: 1).
    'api-error-529': { result: { is_error: true, api_error_status: 529, terminal_reason: 'api_error' } },
    'api-error-401': { result: { is_error: true, api_error_status: 401, terminal_reason: 'api_error' } },
    'sigint-during-tool': { exitCode: 0 },
  },
};

const versions = await readdir(STREAM_FIXTURES_DIR, { withFileTypes: true }).then((entries) => entries.filter((e) => e.isDirectory()).map((e) => e.name).sort());

describe('recorded stream fixtures', () => {
  it('are recorded for the versions debussy is tested with', () => {
    expect(versions).toEqual(Object.keys(byVersion).sort());
  });

  describe.each(versions)('claude %s', (version) => {
    it('are exactly the documented set', async () => {
      const names = (await readdir(`${STREAM_FIXTURES_DIR}/${version}`)).filter((f) => f.endsWith('.ndjson')).map((f) => f.replace(/\.ndjson$/, ''));
      expect(names.sort()).toEqual(Object.keys(expected).sort());
    });

    it.each(Object.keys(expected))('%s starts with init, parses, and ends as documented', async (name) => {
      const want = { ...expected[name], ...byVersion[version]?.[name] } as Expected;
      const lines = await loadStreamFixture(version, name);
      expect(lines.every((l) => typeof l === 'object')).toBe(true);
      expect(lines[0]).toBe(initLine(lines));
      expect(initLine(lines)).toMatchObject({ claude_code_version: version, model: expect.any(String) as string });
      expect(resultLine(lines)).toMatchObject(want.result);
      expect((await loadFixtureExit(version, name)).exitCode).toBe(want.exitCode);
      for (const [type, subtype] of want.has ?? []) expect(linesOfType(lines, type, subtype).length).toBeGreaterThan(0);
    });

    it.each(Object.keys(expected))("%s: debussy's parser reads every line and finds the result", async (name) => {
      const state = newStreamParseState();
      const events = (await loadStreamFixture(version, name)).flatMap((line) => parseStreamLine(JSON.stringify(line), state));
      expect(events.filter((e) => e.type === 'unparsed_line')).toEqual([]);
      expect(events.filter((e) => e.type === 'result')).toHaveLength(1);
    });
  });
});
