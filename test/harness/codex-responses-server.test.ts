import { describe, expect, it } from 'vitest';
import { useScriptedResponses } from '../support/codex-per-test.js';
import {
  ENCRYPTED_PREFIX,
  contextOverflowError,
  countResponsesRequestTokens,
  execCommand,
  promptText,
  rateLimitError,
  toolOutputs,
} from '../support/scripted-responses.js';
import type { ScriptedResponses } from '../support/scripted-responses.js';
import { parseSse } from './sse-client.js';

function requestBody(prompt: string, extraInput: unknown[] = []): Record<string, unknown> {
  return {
    model: 'gpt-5.5',
    stream: true,
    store: false,
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/tmp</cwd>\n</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] },
      ...extraInput,
    ],
    tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }],
  };
}

async function post(server: ScriptedResponses, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('the scripted Responses API over plain HTTP', () => {
  it('streams a text reply with usage computed from the request (cl100k), total = input + output', async () => {
    const server = await useScriptedResponses({ script: [{ kind: 'text', text: 'Hello there' }] });
    const body = requestBody('count me');
    const res = await post(server, body, { 'x-codex-turn-metadata': JSON.stringify({ request_kind: 'turn' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done', 'response.completed']);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const completed = events.at(-1)?.data.response as { id: string; usage: Record<string, unknown> };
    const input = countResponsesRequestTokens(body);
    expect(input).toBeGreaterThan(10);
    expect(completed.usage).toEqual({
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + 2,
    });
    const [recorded] = server.responseRequests();
    expect(recorded).toMatchObject({ kind: 'turn', trueTokens: input, aborted: false, turn: { kind: 'text' } });
    expect(promptText(recorded!)).toBe('count me');
  });

  it('streams several tool calls (function and custom) after a reasoning item, with scripted usage', async () => {
    const server = await useScriptedResponses({
      script: [
        {
          kind: 'calls',
          reasoning: 'think first',
          calls: [execCommand('ls', 'call_a'), { type: 'custom', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' }],
          usage: { input_tokens: 150_000, cached_tokens: 140_000, output_tokens: 300, reasoning_tokens: 200 },
        },
      ],
    });
    const events = parseSse(await (await post(server, requestBody('go'))).text());
    const done = events.filter((e) => e.event === 'response.output_item.done').map((e) => e.data.item as Record<string, unknown>);
    expect(done.map((item) => item.type)).toEqual(['reasoning', 'function_call', 'custom_tool_call']);
    expect(done[0]?.encrypted_content).toBe(ENCRYPTED_PREFIX + Buffer.from('think first').toString('base64'));
    expect(done[1]).toMatchObject({ name: 'exec_command', call_id: 'call_a', arguments: '{"cmd":"ls","login":false}' });
    expect(done[2]).toMatchObject({ name: 'apply_patch', call_id: 'call_0_1' });
    const usage = (events.at(-1)?.data.response as { usage: unknown }).usage;
    expect(usage).toEqual({
      input_tokens: 150_000,
      input_tokens_details: { cached_tokens: 140_000 },
      output_tokens: 300,
      output_tokens_details: { reasoning_tokens: 200 },
      total_tokens: 150_300,
    });
  });

  it('holds response.completed back by completeDelayMs after the items', async () => {
    const server = await useScriptedResponses({ script: [{ kind: 'calls', calls: [execCommand('true')], completeDelayMs: 400 }] });
    const sent = Date.now();
    const text = await (await post(server, requestBody('go'))).text();
    // The items come first, completed only once the delay has passed. Timed from the request, whose
    // answer cannot end sooner: a client timing the gap between its own reads of the two was seen
    // to measure 381 ms in a loaded CI, having read the items late.
    expect(Date.now() - sent).toBeGreaterThanOrEqual(400);
    expect(text.indexOf('response.output_item.done')).toBeGreaterThan(-1);
    expect(text.indexOf('response.output_item.done')).toBeLessThan(text.indexOf('response.completed'));
  });

  it('answers HTTP errors in OpenAI shape with their headers, and response.failed in a 200 stream', async () => {
    const server = await useScriptedResponses({
      script: [rateLimitError(3), contextOverflowError(), { kind: 'failed', code: 'context_length_exceeded', message: 'too long' }],
    });
    const limited = await post(server, requestBody('a'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded', type: 'tokens' } });
    const overflow = await post(server, requestBody('b'));
    expect(overflow.status).toBe(400);
    expect(await overflow.json()).toEqual({
      error: { code: 'context_length_exceeded', type: 'invalid_request_error', param: 'input', message: expect.stringContaining('exceeds the context window') as string },
    });
    const failed = parseSse(await (await post(server, requestBody('c'))).text());
    expect(failed.map((e) => e.event)).toEqual(['response.created', 'response.failed']);
    expect((failed[1]?.data.response as { error: unknown }).error).toEqual({ code: 'context_length_exceeded', message: 'too long' });
  });

  it('records tool outputs of the next request, waits for requests, and says "Done." when the script runs out', async () => {
    const server = await useScriptedResponses({ script: [] });
    const waiting = server.waitForRequest(1);
    await post(server, requestBody('x', [{ type: 'function_call_output', call_id: 'call_1', output: 'wrote' }]));
    expect(toolOutputs(await waiting)).toEqual([{ callId: 'call_1', output: 'wrote' }]);
    const other = await fetch(`${server.url}/v1/models`);
    expect(other.status).toBe(404);
    expect(server.responseRequests()).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('drops a stream after some events and ends a stalled one on close()', async () => {
    const server = await useScriptedResponses({ script: [{ kind: 'drop', afterEvents: 2 }, { kind: 'stall', afterHeaders: true }] });
    await expect((await post(server, requestBody('a'))).text()).rejects.toThrow();
    const stalled = await post(server, requestBody('b'));
    expect(stalled.status).toBe(200);
    const body = stalled.text();
    await server.close();
    await expect(body).rejects.toThrow();
  });
});
