import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseBody, readBody, sendJson, sseHeaders } from '../scripted-http/http-helpers.js';
import { isMainLoopRequest, modelOf, pathOf, routeOf, wantsStream } from './classify.js';
import { errorBody, formatSse, jsonMessage, outputTokensOf, sseEvents, textBlocks, toolUseBlocks } from './replies.js';
import type { ReplyMessage } from './replies.js';
import { countRequestTokens } from './tokens.js';
import { countReplyTokensForeign, countRequestTokensForeign } from './foreign-tokens.js';
import type { RecordedRequest, ScriptedApi, ScriptedApiOptions, ScriptedTurn, UsageSpec } from './types.js';

const SIDE_REPLY_TEXT = 'ok';
const EXHAUSTED_TEXT = 'Done.';

export async function startScriptedApi(options: ScriptedApiOptions): Promise<ScriptedApi> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const mainWaiters: Array<{ n: number; resolve: (r: RecordedRequest) => void; reject: (e: Error) => void }> = [];
  let mainCount = 0;
  let closed = false;

  const mainRequests = (): RecordedRequest[] => requests.filter((r) => r.main);

  const nextTurn = (rec: RecordedRequest): ScriptedTurn => {
    const index = mainCount++;
    if (typeof options.script === 'function') return options.script(rec, index);
    const turn = options.script[index];
    if (turn !== undefined) return turn;
    return options.onExhausted === 'error'
      ? { kind: 'error', status: 400, type: 'invalid_request_error', message: `scripted api: script exhausted at main request ${index + 1}` }
      : { kind: 'text', text: EXHAUSTED_TEXT };
  };

  const notifyWaiters = (): void => {
    const main = mainRequests();
    for (const waiter of [...mainWaiters]) {
      const hit = main[waiter.n - 1];
      if (hit !== undefined) {
        mainWaiters.splice(mainWaiters.indexOf(waiter), 1);
        waiter.resolve(hit);
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const rec: RecordedRequest = {
      index: requests.length,
      path: pathOf(req.url),
      method: req.method ?? 'GET',
      headers: { ...req.headers },
      body: parseBody(raw),
      receivedAt: Date.now(),
      aborted: false,
      main: false,
    };
    requests.push(rec);
    res.on('close', () => {
      if (!res.writableFinished) rec.aborted = true;
    });

    const route = routeOf(req);
    if (route === 'head') {
      res.writeHead(200).end();
      return;
    }
    if (route === 'other') {
      sendJson(res, 404, errorBody('not_found_error', `scripted api: no route for ${rec.method} ${rec.path}`));
      return;
    }
    rec.trueTokens = options.usage === 'foreign' ? countRequestTokensForeign(rec.body, options.foreign) : countRequestTokens(rec.body);
    if (route === 'count_tokens') {
      sendJson(res, 200, { input_tokens: rec.trueTokens });
      return;
    }
    const stream = wantsStream(rec.body);
    if (!isMainLoopRequest(rec.body)) {
      await sendMessage(res, stream, buildMessage(rec, { kind: 'text', text: SIDE_REPLY_TEXT }, options), 0);
      return;
    }
    rec.main = true;
    let turn: ScriptedTurn;
    try {
      turn = nextTurn(rec);
    } catch (error) {
      turn = { kind: 'error', status: 400, type: 'invalid_request_error', message: `scripted api: script function threw: ${String(error)}` };
    }
    rec.turn = turn;
    notifyWaiters();
    await answer(res, stream, rec, turn, options);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody('api_error', `scripted api: ${String(error)}`));
      else res.destroy();
    });
  });
  // The CLI keeps connections alive; close() must be able to end every one of them.
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    mainRequests,
    waitForMainRequest(n) {
      const hit = mainRequests()[n - 1];
      if (hit !== undefined) return Promise.resolve(hit);
      if (closed) return Promise.reject(new Error('scripted api closed'));
      return new Promise((resolve, reject) => mainWaiters.push({ n, resolve, reject }));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const waiter of mainWaiters.splice(0)) waiter.reject(new Error(`scripted api closed before main request ${waiter.n}`));
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await done;
    },
  };
}

async function answer(res: ServerResponse, stream: boolean, rec: RecordedRequest, turn: ScriptedTurn, options: ScriptedApiOptions): Promise<void> {
  switch (turn.kind) {
    case 'error':
      res.writeHead(turn.status, { 'content-type': 'application/json', ...turn.headers });
      res.end(JSON.stringify(errorBody(turn.type, turn.message)));
      return;
    case 'stall':
      if (turn.afterHeaders) {
        res.writeHead(200, sseHeaders());
        res.flushHeaders();
      }
      return; // left open until the client gives up or close() destroys the socket
    case 'drop': {
      if (stream) {
        const events = sseEvents(buildMessage(rec, { kind: 'text', text: 'This reply is cut off' }, options));
        res.writeHead(200, sseHeaders());
        for (const event of events.slice(0, turn.afterEvents ?? 0)) res.write(formatSse(event));
        res.flushHeaders();
        // Let the written bytes reach the client before the reset.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      res.socket?.destroy();
      return;
    }
    case 'text':
    case 'tool_use':
      await sendMessage(res, stream, buildMessage(rec, turn, options), turn.latencyMs ?? options.defaultLatencyMs ?? 0, turn.headers, options.deltaChars);
      return;
  }
}

function buildMessage(rec: RecordedRequest, turn: Extract<ScriptedTurn, { kind: 'text' | 'tool_use' }>, options: ScriptedApiOptions): ReplyMessage {
  const idPrefix = `scripted_${rec.index}`;
  const content =
    turn.kind === 'text'
      ? textBlocks(turn.text)
      : [...textBlocks(turn.text), ...toolUseBlocks('uses' in turn ? turn.uses : [{ name: turn.name, input: turn.input, id: turn.id }], idPrefix)];
  const output = options.usage === 'foreign' ? countReplyTokensForeign(content, options.foreign) : outputTokensOf(content);
  const usage = resolveUsage(options.usage ?? 'computed', rec.trueTokens ?? 0, output, turn.usage);
  return { id: `msg_${idPrefix}`, model: modelOf(rec.body), content, stopReason: turn.kind === 'tool_use' ? 'tool_use' : 'end_turn', usage };
}

function resolveUsage(mode: 'computed' | 'scripted' | 'foreign', trueTokens: number, outputTokens: number, spec: UsageSpec | undefined): Required<UsageSpec> {
  return {
    input_tokens: spec?.input_tokens ?? (mode === 'scripted' ? 1 : trueTokens),
    cache_read_input_tokens: spec?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: spec?.cache_creation_input_tokens ?? 0,
    output_tokens: spec?.output_tokens ?? outputTokens,
  };
}

async function sendMessage(
  res: ServerResponse,
  stream: boolean,
  message: ReplyMessage,
  latencyMs: number,
  headers: Record<string, string> = {},
  deltaChars?: ScriptedApiOptions['deltaChars'],
): Promise<void> {
  if (latencyMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (res.destroyed) return;
  }
  if (!stream) {
    sendJson(res, 200, jsonMessage(message), headers);
    return;
  }
  res.writeHead(200, { ...sseHeaders(), ...headers });
  for (const event of sseEvents(message, deltaChars)) res.write(formatSse(event));
  res.end();
}

