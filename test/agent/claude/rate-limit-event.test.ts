import { describe, expect, it } from 'vitest';
import { newStreamParseState, parseStreamLine } from '../../../src/agent/index.js';

// As claude 2.1.197 printed them against the scripted server with subscription auth (docs/budgets.md).
const REJECTED = '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1795484289,"rateLimitType":"five_hour","isUsingOverage":false},"uuid":"ecfe1b5f-572a-4980-8384-82545d2f11c8","session_id":"79dd44d2-08de-4a44-839b-f4c5a044dbc0"}';
const WARNING = '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":1795484283,"rateLimitType":"five_hour","utilization":0.95,"isUsingOverage":false,"surpassedThreshold":0.9},"uuid":"1b71b601-5b10-46cb-a198-da6a9a70e424","session_id":"9ca10b83-a6a0-4715-916c-8e030eb2df5b"}';

describe('rate_limit_event', () => {
  it.each([
    [REJECTED, { type: 'rate_limit', status: 'rejected', resetsAt: 1_795_484_289, rateLimitType: 'five_hour' }],
    [WARNING, { type: 'rate_limit', status: 'allowed_warning', resetsAt: 1_795_484_283, rateLimitType: 'five_hour' }],
    ['{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}', { type: 'rate_limit', status: 'allowed' }],
  ])('%s', (line, event) => {
    expect(parseStreamLine(line, newStreamParseState())).toEqual([event]);
  });

  it('without rate_limit_info it is an unparsed line, counted', () => {
    const state = newStreamParseState();
    expect(parseStreamLine('{"type":"rate_limit_event"}', state)).toMatchObject([{ type: 'unparsed_line', reason: 'unknown-type' }]);
    expect(state.unparsedLines).toBe(1);
  });
});
