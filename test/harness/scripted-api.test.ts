import { afterEach, describe, expect, it } from 'vitest';
import { countRequestTokens, startScriptedApi } from '../support/scripted-api.js';
import type { ScriptedApi, ScriptedApiOptions } from '../support/scripted-api.js';
import { mainBody, parseSse, post } from './sse-client.js';

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(options: ScriptedApiOptions): Promise<ScriptedApi> {
  api = await startScriptedApi(options);
  return api;
}

describe('scripted api over plain HTTP', () => {
  it('listens on 127.0.0.1 and answers HEAD / (the CLI probes it first)', async () => {
    const server = await start({ script: [] });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await fetch(`${server.url}/`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(server.requests.map((r) => [r.method, r.path, r.main])).toEqual([['HEAD', '/', false]]);
  });

  it('streams a text turn as the Messages API SSE sequence with computed usage', async () => {
    const server = await start({ script: [{ kind: 'text', text: 'Hello there' }] });
    const body = mainBody('count me');
    const res = await post(server, '/v1/messages?beta=true', body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const start0 = events[0]?.data.message as { model: string; usage: Record<string, number> };
    expect(start0.model).toBe('claude-test-1');
    expect(start0.usage.input_tokens).toBe(countRequestTokens(body));
    expect(start0.usage.input_tokens).toBeGreaterThan(10);
    expect(events[2]?.data.delta).toEqual({ type: 'text_delta', text: 'Hello there' });
    expect(events[4]?.data.delta).toMatchObject({ stop_reason: 'end_turn' });

    const [recorded] = server.mainRequests();
    expect(recorded?.path).toBe('/v1/messages');
    expect(recorded?.body).toEqual(body);
    expect(recorded?.headers['x-api-key']).toBe('test-key');
    expect(recorded?.trueTokens).toBe(start0.usage.input_tokens);
    expect(recorded?.aborted).toBe(false);
    expect(recorded?.turn).toEqual({ kind: 'text', text: 'Hello there' });
  });

  it('streams tool_use blocks (one or several) after an optional text block', async () => {
    const server = await start({
      script: [
        { kind: 'tool_use', name: 'Bash', input: { command: 'echo hi' }, text: 'Running it.', id: 'toolu_fixed' },
        { kind: 'tool_use', uses: [{ name: 'Read', input: { file_path: '/a' } }, { name: 'Write', input: { file_path: '/b', content: 'x' } }] },
      ],
    });
    const first = parseSse(await (await post(server, '/v1/messages', mainBody())).text());
    const starts = first.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block);
    expect(starts).toEqual([
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_fixed', name: 'Bash', input: {} },
    ]);
    const jsonDelta = first.find((e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta');
    expect(JSON.parse((jsonDelta?.data.delta as { partial_json: string }).partial_json)).toEqual({ command: 'echo hi' });
    expect(first.find((e) => e.event === 'message_delta')?.data.delta).toMatchObject({ stop_reason: 'tool_use' });

    const second = parseSse(await (await post(server, '/v1/messages', mainBody())).text());
    const tools = second.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block as { name: string; id: string });
    expect(tools.map((t) => t.name)).toEqual(['Read', 'Write']);
    expect(new Set(tools.map((t) => t.id)).size).toBe(2);
  });

  it('answers a non-streaming request (the CLI fallback after a dropped stream) with one JSON message', async () => {
    const server = await start({ script: [{ kind: 'tool_use', name: 'Bash', input: { command: 'ls' } }] });
    const res = await post(server, '/v1/messages', mainBody('x', { stream: undefined }));
    expect(res.headers.get('content-type')).toBe('application/json');
    const message = (await res.json()) as Record<string, unknown>;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'tool_use' });
    expect(message.content).toEqual([{ type: 'tool_use', id: expect.any(String) as string, name: 'Bash', input: { command: 'ls' } }]);
    expect(server.mainRequests()).toHaveLength(1);
  });

  it('lets scripted usage override the computed figures, field by field', async () => {
    const server = await start({
      script: [
        { kind: 'text', text: 'a', usage: { cache_read_input_tokens: 150_000, output_tokens: 7 } },
        { kind: 'text', text: 'b', usage: { input_tokens: 5, cache_creation_input_tokens: 20 } },
      ],
    });
    const body = mainBody();
    const usageOf = async (): Promise<Record<string, number>> => {
      const events = parseSse(await (await post(server, '/v1/messages', body)).text());
      const start0 = (events[0]?.data.message as { usage: Record<string, number> }).usage;
      const delta = (events.find((e) => e.event === 'message_delta')?.data.usage ?? {}) as Record<string, number>;
      return { ...start0, output_tokens: delta.output_tokens ?? -1 };
    };
    expect(await usageOf()).toEqual({
      input_tokens: countRequestTokens(body),
      cache_read_input_tokens: 150_000,
      cache_creation_input_tokens: 0,
      output_tokens: 7,
    });
    expect(await usageOf()).toMatchObject({ input_tokens: 5, cache_creation_input_tokens: 20, cache_read_input_tokens: 0 });
  });

  it("in 'scripted' usage mode reports only what the script states", async () => {
    const server = await start({ usage: 'scripted', script: [{ kind: 'text', text: 'a' }] });
    const events = parseSse(await (await post(server, '/v1/messages', mainBody())).text());
    expect((events[0]?.data.message as { usage: Record<string, number> }).usage).toEqual({
      input_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      output_tokens: 1,
    });
  });

  it('sends an error turn with its status, headers and an Anthropic error body', async () => {
    const server = await start({
      script: [{ kind: 'error', status: 429, type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '7', 'x-should-retry': 'false' } }],
    });
    const res = await post(server, '/v1/messages', mainBody());
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });

  it('answers side requests (no tools) with a harmless text and does not consume the script', async () => {
    const server = await start({ script: [{ kind: 'text', text: 'scripted' }] });
    const side = parseSse(await (await post(server, '/v1/messages', mainBody('title please', { tools: undefined }))).text());
    expect(side.find((e) => e.event === 'content_block_delta')?.data.delta).toEqual({ type: 'text_delta', text: 'ok' });
    const main = parseSse(await (await post(server, '/v1/messages', mainBody())).text());
    expect(main.find((e) => e.event === 'content_block_delta')?.data.delta).toEqual({ type: 'text_delta', text: 'scripted' });
    expect(server.requests.map((r) => r.main)).toEqual([false, true]);
  });

  it('answers count_tokens with the true token count and 404s unknown routes', async () => {
    const server = await start({ script: [] });
    const body = { model: 'm', messages: [{ role: 'user', content: 'some words to count' }] };
    const res = await post(server, '/v1/messages/count_tokens?beta=true', body);
    expect(await res.json()).toEqual({ input_tokens: countRequestTokens(body) });
    const missing = await fetch(`${server.url}/v1/models`);
    expect(missing.status).toBe(404);
    expect(server.requests.map((r) => [r.path, r.main])).toEqual([
      ['/v1/messages/count_tokens', false],
      ['/v1/models', false],
    ]);
  });

  it('answers past the end of the script with "Done." or, if asked, a 400', async () => {
    const done = await start({ script: [] });
    const events = parseSse(await (await post(done, '/v1/messages', mainBody())).text());
    expect(events.find((e) => e.event === 'content_block_delta')?.data.delta).toEqual({ type: 'text_delta', text: 'Done.' });
    await done.close();

    const strict = await start({ script: [], onExhausted: 'error' });
    const res = await post(strict, '/v1/messages', mainBody());
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/script exhausted/);
  });

  it('calls a script function with the recorded request and the main-turn index', async () => {
    const seen: Array<[number, string]> = [];
    const server = await start({
      script: (req, i) => {
        seen.push([i, JSON.stringify(req.body).includes('second') ? 'second' : 'first']);
        return { kind: 'text', text: `turn ${i}` };
      },
    });
    await (await post(server, '/v1/messages', mainBody('first'))).text();
    await (await post(server, '/v1/messages', mainBody('second'))).text();
    expect(seen).toEqual([
      [0, 'first'],
      [1, 'second'],
    ]);
  });

  it('turns a throwing script function into a 400 the CLI will not retry', async () => {
    const server = await start({
      script: () => {
        throw new Error('bad script');
      },
    });
    const res = await post(server, '/v1/messages', mainBody());
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('bad script');
  });

  it('drops the connection after the given number of events and records the request as aborted', async () => {
    const server = await start({ script: [{ kind: 'drop', afterEvents: 2 }] });
    const res = await post(server, '/v1/messages', mainBody());
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    await expect.poll(() => server.mainRequests()[0]?.aborted).toBe(true);
  });

  it('holds a stall open (with or without headers) until close() ends it', async () => {
    const server = await start({ script: [{ kind: 'stall', afterHeaders: true }, { kind: 'stall', afterHeaders: false }] });
    const withHeaders = await post(server, '/v1/messages', mainBody());
    expect(withHeaders.status).toBe(200);
    const bodyDone = withHeaders.text();
    const noHeaders = post(server, '/v1/messages', mainBody());
    await server.waitForMainRequest(2);
    const outcome = Promise.allSettled([bodyDone, noHeaders]);
    await server.close();
    const [a, b] = await outcome;
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(server.mainRequests().map((r) => r.aborted)).toEqual([true, true]);
  });

  it('waits latencyMs before answering', async () => {
    const server = await start({ script: [{ kind: 'text', text: 'late', latencyMs: 300 }] });
    const sent = Date.now();
    const res = await post(server, '/v1/messages', mainBody());
    expect(Date.now() - sent).toBeGreaterThanOrEqual(290);
    expect(res.status).toBe(200);
  });

  it('marks a request the client abandons during latency as aborted and sends nothing', async () => {
    const server = await start({ defaultLatencyMs: 5_000, script: [{ kind: 'text', text: 'never seen' }] });
    const controller = new AbortController();
    const pending = post(server, '/v1/messages', mainBody(), controller.signal);
    await server.waitForMainRequest(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => server.mainRequests()[0]?.aborted).toBe(true);
  });

  it('rejects waiters still pending at close()', async () => {
    const server = await start({ script: [] });
    const waiting = server.waitForMainRequest(1);
    await server.close();
    await expect(waiting).rejects.toThrow(/closed/);
  });
});
