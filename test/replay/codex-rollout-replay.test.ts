/**
 * `debussy replay` of a Codex CLI rollout file (~/.codex/sessions/.../rollout-*.jsonl): each
 * API call's recorded usage is a row, the monitor projects the next one from what entered, and a
 * compaction is marked. The recordings are this project's own (test/fixtures/codex-streams/,
 * written by codex 0.171.0 against the scripted Responses server); the expected calls are read
 * from their token_usage_record lines here, apart from the code under test.
 */
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLineBatches } from '../../src/agent/index.js';
import { replayTranscript, type ReplayCall, type ReplayEnd } from '../../src/replay/index.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/codex-streams/0.171.0');

async function replay(name: string): Promise<{ calls: ReplayCall[]; end: ReplayEnd }> {
  const calls: ReplayCall[] = [];
  const run = replayTranscript(readLineBatches(createReadStream(path.join(FIXTURES, `${name}.rollout.jsonl`))), { thresholdPercent: 80, maxContextTokens: undefined, contextWindow: 272_000, format: 'codex' });
  let next = await run.next();
  while (next.done !== true) {
    calls.push(next.value);
    next = await run.next();
  }
  return { calls, end: next.value };
}

/** What each token_usage_record says the call's context was (OpenAI's input_tokens include the cached ones). */
function recordedInputs(name: string): number[] {
  return readFileSync(path.join(FIXTURES, `${name}.rollout.jsonl`), 'utf8').split('\n').filter((line) => line.includes('"token_usage_record"'))
    .map((line) => (JSON.parse(line) as { payload: { usage: { input_tokens: number } } }).payload.usage.input_tokens);
}

describe('replay of a codex rollout', () => {
  it.each(['exec-tool-session', 'compaction'])('%s: one row per recorded call, its reported context as recorded, a projection from the second call on', async (name) => {
    const { calls, end } = await replay(name);
    expect(calls.map((call) => call.reported)).toEqual(recordedInputs(name));
    expect(calls.length).toBeGreaterThan(1);
    expect(calls[0]?.projected).toBeNull();
    expect(calls.slice(1).some((call) => call.projected !== null)).toBe(true);
    expect(calls.every((call) => call.model.startsWith('gpt-'))).toBe(true);
    expect(end.badLines).toBe(0);
  });

  it('marks the call after codex compacted, and projects nothing across it', async () => {
    const { calls } = await replay('compaction');
    const after = calls.filter((call) => call.compactedBefore);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((call) => call.projected === null)).toBe(true);
  });
});
