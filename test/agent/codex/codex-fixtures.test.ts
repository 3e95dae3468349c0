/**
 * debussy's codex parsers over the recordings of the real codex (test/fixtures/codex-streams/):
 * every line understood, and what each recorded session must come to.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agent-events.js';
import { newCodexParseState, parseAppServerLine, toolCallIdsOfCall } from '../../../src/agent/codex/app-server-events.js';
import { sessionOutcomeOf } from '../../../src/agent/session-outcome.js';
import { classifySessionEnd } from '../../../src/recovery/classify.js';
import { newRolloutParseState, parseRolloutLine } from '../../../src/agent/codex/rollout-events.js';
import { OPENAI_PRICES } from '../../../src/agent/codex/openai-prices.js';
import type { PriceCall } from '../../../src/agent/call-usage.js';
import { estimateCost } from '../../../src/cost/estimate.js';
import type { PriceTable } from '../../../src/cost/prices.js';
import { CODEX_FIXTURES_DIR, loadCodexFixture } from '../../support/codex-fixtures.js';

// The wiring prices codex's calls with debussy's estimate over the OpenAI table.
const table: PriceTable = OPENAI_PRICES;
const priceCall: PriceCall = (model, tokens) => estimateCost(tokens, model, table).usd;

const VERSION = '0.171.0';

async function appServerEvents(name: string): Promise<AgentEvent[]> {
  const state = newCodexParseState({ priceCall });
  return (await loadCodexFixture(VERSION, name, 'app-server')).flatMap((line) => parseAppServerLine(line, state));
}

async function rolloutEvents(name: string): Promise<AgentEvent[]> {
  const state = newRolloutParseState({ priceCall });
  return (await loadCodexFixture(VERSION, name, 'rollout')).flatMap((line) => parseRolloutLine(line, state));
}

/** What recovery/classify.ts makes of a session that ended with these events (codex exits 0 once its stdin closes). */
function failureClassOf(events: AgentEvent[]): string {
  const result = ofType(events, 'result').at(-1);
  const lastApiError = ofType(events, 'api_error').at(-1);
  const lastRetry = ofType(events, 'api_retry').at(-1);
  const outcome = sessionOutcomeOf({ result, stopSignalled: false, killRequested: false, apiErrorSeen: lastApiError !== undefined });
  return classifySessionEnd({
    end: { outcome, exitCode: 0, signal: null, sawResult: result !== undefined, result, stderrTail: '', lastApiError, lastRetry },
    stoppedBy: undefined,
    refusals: [],
  }).class;
}

const SUBTYPES = { completed: 'success', failed: 'error_during_execution', interrupted: 'interrupted' } as const;

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

interface Expected {
  /** result.subtype: the turn's status. */
  status: 'completed' | 'interrupted' | 'failed';
  calls: number;
  tools: string[];
  /** The FailureClass recovery/classify.ts gives the session's end. */
  failure?: string;
  apiErrorStatus?: number | null;
  /** Events the app-server parse must hold, by type. */
  has?: AgentEvent['type'][];
}

// What each recorded app-server session comes to; `rollout` where its rollout file differs.
const expected: Record<string, Expected & { rollout?: Partial<Expected> | false }> = {
  'tool-session': { status: 'completed', calls: 2, tools: ['Bash: echo hi > out.txt && echo wrote'] },
  'parallel-calls': { status: 'completed', calls: 2, tools: ['Bash: sleep 1; echo a', 'Bash: sleep 1; echo b'] },
  'apply-patch': { status: 'completed', calls: 2, tools: ['apply_patch: notes.md'] },
  // Recorded with rawResponseItem/completed (the others were recorded when debussy opted out of it).
  'call-ids': { status: 'completed', calls: 3, tools: ['Bash: sleep 1; echo one', 'apply_patch: p.txt', 'Bash: echo two'] },
  // A refused call has no item in the app-server; the rollout keeps it, its output the refusal.
  'hook-blocked': { status: 'completed', calls: 2, tools: [], rollout: { tools: ['Bash: echo one > one.txt'] } },
  interrupted: { status: 'interrupted', calls: 1, tools: ['Bash: sleep 30; echo interrupt-1795728205987'] },
  compaction: { status: 'completed', calls: 3, tools: ['Bash: echo one'], has: ['compaction'] },
  'rate-limit-retried': { status: 'completed', calls: 1, tools: [], has: ['api_retry'] },
  'rate-limit-exhausted': { status: 'failed', calls: 0, tools: [], failure: 'rate_limit', apiErrorStatus: 429, has: ['api_error'] },
  'context-overflow': { status: 'failed', calls: 0, tools: [], failure: 'context_overflow', apiErrorStatus: null, has: ['api_error'] },
  'context-overflow-stream': { status: 'failed', calls: 0, tools: [], failure: 'context_overflow', apiErrorStatus: null, has: ['api_error'] },
  // classify.ts's billing case: not retryable, "add credits or change the API key".
  'quota-exceeded': { status: 'failed', calls: 0, tools: [], failure: 'invalid_request', apiErrorStatus: null, has: ['api_error'] },
  unauthorized: { status: 'failed', calls: 0, tools: [], failure: 'authentication', apiErrorStatus: 401, has: ['api_error'] },
  'server-error': { status: 'failed', calls: 0, tools: [], failure: 'server_error', apiErrorStatus: null, has: ['api_error'] },
  // classify.ts reads a 503 as a server error (retryable), as for claude.
  overloaded: { status: 'failed', calls: 0, tools: [], failure: 'server_error', apiErrorStatus: 503, has: ['api_error'] },
  // The resumed turn's one call (from thread/tokenUsage/updated: a resumed thread has no raw events);
  // its rollout holds both turns.
  resumed: { status: 'completed', calls: 1, tools: [], rollout: { calls: 3, tools: ['Bash: echo one'] } },
};

describe('the recorded codex 0.171.0 sessions', () => {
  it('are exactly the documented set', async () => {
    const files = await readdir(join(CODEX_FIXTURES_DIR, VERSION));
    const names = new Set(files.filter((f) => f.endsWith('.app-server.jsonl')).map((f) => f.replace('.app-server.jsonl', '')));
    expect([...names].sort()).toEqual(Object.keys(expected).sort());
  });

  describe.each(Object.entries(expected))('%s', (name, want) => {
    it('app-server: every line parses, one result as recorded', async () => {
      const events = await appServerEvents(name);
      expect(ofType(events, 'unparsed_line')).toEqual([]);
      expect(events[0]).toMatchObject({ type: 'init', model: 'gpt-5.5', version: VERSION });
      const results = ofType(events, 'result');
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ subtype: SUBTYPES[want.status], isError: want.status !== 'completed', numTurns: want.calls });
      if (want.calls > 0) expect(results[0]?.contextWindow).toBe(258_400);
      if (want.apiErrorStatus !== undefined) expect(results[0]?.apiErrorStatus).toBe(want.apiErrorStatus);
      expect(ofType(events, 'usage')).toHaveLength(want.calls);
      expect(ofType(events, 'output_usage')).toHaveLength(want.calls);
      expect(ofType(events, 'tool_start').map((e) => e.summary).sort()).toEqual([...want.tools].sort());
      for (const type of want.has ?? []) expect(ofType(events, type).length).toBeGreaterThan(0);
      if (want.failure !== undefined) expect(failureClassOf(events)).toBe(want.failure);
    });

    it('rollout: every line parses; usage and tools agree with the app-server', async () => {
      if (want.rollout === false) return;
      const merged = { ...want, ...want.rollout };
      const events = await rolloutEvents(name);
      expect(ofType(events, 'unparsed_line')).toEqual([]);
      expect(ofType(events, 'init')).toEqual([expect.objectContaining({ model: 'gpt-5.5', version: VERSION })]);
      expect(ofType(events, 'usage')).toHaveLength(merged.calls);
      expect(ofType(events, 'tool_start').map((e) => e.summary).sort()).toEqual([...merged.tools].sort());
      expect(ofType(events, 'result').at(-1)).toMatchObject({ subtype: SUBTYPES[merged.status] });
      if (merged.failure !== undefined) expect(failureClassOf(events)).toBe(merged.failure);
    });
  });
});

describe('what the parsers make of the recordings', () => {
  it("call-ids: each call's tool call ids, from rawResponseItem/completed", async () => {
    const state = newCodexParseState({ priceCall });
    for (const line of await loadCodexFixture(VERSION, 'call-ids', 'app-server')) parseAppServerLine(line, state);
    expect([1, 2, 3, 4].map((call) => toolCallIdsOfCall(state, call))).toEqual([['call_slow', 'call_patch'], ['call_next'], [], []]);
  });

  it('tool-session: usage once per response id, before the tool starts; the context is input_tokens', async () => {
    const events = await appServerEvents('tool-session');
    const types = events.map((e) => e.type);
    expect(types.indexOf('usage')).toBeLessThan(types.indexOf('tool_start'));
    const usage = ofType(events, 'usage');
    expect(usage.map((u) => u.messageId)).toEqual(['resp_scripted_0', 'resp_scripted_1']);
    for (const u of usage) expect(u.contextTokens).toBe(u.inputTokens + u.cacheReadTokens + u.cacheCreationTokens);
    expect(ofType(events, 'tool_result')).toEqual([{ type: 'tool_result', toolUseId: 'call_write', isError: false, text: 'wrote\n' }]);
    const [result] = ofType(events, 'result');
    expect(result?.inputTokens).toBe(usage.reduce((sum, u) => sum + u.inputTokens, 0));
    // gpt-5.5 at $5 / $30 per million.
    expect(result?.costUsd).toBeCloseTo((result!.inputTokens * 5 + result!.outputTokens * 30) / 1_000_000, 9);
  });

  it('exec-tool-session rollout: cached tokens are part of input_tokens, priced at the cached rate', async () => {
    const events = await rolloutEvents('exec-tool-session');
    expect(ofType(events, 'usage').map((u) => [u.contextTokens, u.inputTokens, u.cacheReadTokens])).toEqual([
      [10_000, 2_000, 8_000],
      [10_200, 200, 10_000],
    ]);
    const [result] = ofType(events, 'result');
    expect(result?.costUsd).toBeCloseTo((2_200 * 5 + 18_000 * 0.5 + 55 * 30) / 1_000_000, 9);
  });

  it('compaction: started and boundary carry the context codex compacted, not its summary request', async () => {
    const compactions = ofType(await appServerEvents('compaction'), 'compaction');
    expect(compactions).toEqual([
      { type: 'compaction', stage: 'started', preTokens: 245_000 },
      { type: 'compaction', stage: 'boundary', preTokens: 245_000 },
    ]);
    expect(ofType(await rolloutEvents('compaction'), 'compaction')).toEqual([{ type: 'compaction', stage: 'boundary', preTokens: 245_000 }]);
  });

  it('interrupted: the running tool has no result in the app-server; the rollout says it was aborted', async () => {
    expect(ofType(await appServerEvents('interrupted'), 'tool_result')).toEqual([]);
    expect(ofType(await rolloutEvents('interrupted'), 'tool_result')).toEqual([expect.objectContaining({ isError: true, text: expect.stringContaining('aborted by user') as string })]);
  });

  it('rate-limit-retried: the retry is announced with its status; codex does not say how long it waits', async () => {
    expect(ofType(await appServerEvents('rate-limit-retried'), 'api_retry')).toEqual([{ type: 'api_retry', attempt: 1, maxRetries: 1, delayMs: 0, errorStatus: 429 }]);
  });

  it('resumed: the replayed usage before turn/started is not counted as a call of this session', async () => {
    const usage = ofType(await appServerEvents('resumed'), 'usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]?.contextTokens).toBeGreaterThan(7_600);
  });
});
