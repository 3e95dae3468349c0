import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseBody, readBody, sendJson, sseHeaders } from '../scripted-http/http-helpers.js';
import { completedEvent, errorBody, failedEvents, formatSse, itemEvents, outputItems, replyUsage } from './replies.js';
import { countResponsesRequestTokens } from './tokens.js';
import type { RecordedResponsesRequest, ResponsesTurn, ScriptedResponses, ScriptedResponsesOptions } from './types.js';

const EXHAUSTED_TEXT = 'Done.';
const DEFAULT_MODEL = 'gpt-scripted';

export async function startScriptedResponses(options: ScriptedResponsesOptions): Promise<ScriptedResponses> {
  const requests: RecordedResponsesRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: (r: RecordedResponsesRequest) => void; reject: (e: Error) => void }> = [];
  let answered = 0;
  let closed = false;

  const responseRequests = (): RecordedResponsesRequest[] => requests.filter((r) => r.turn !== undefined);

  const nextTurn = (rec: RecordedResponsesRequest): ResponsesTurn => {
    const index = answered++;
    if (typeof options.script === 'function') return options.script(rec, index);
    const turn = options.script[index];
    if (turn !== undefined) return turn;
    return options.onExhausted === 'error'
      ? { kind: 'http_error', status: 400, message: `scripted responses: script exhausted at request ${index + 1}`, type: 'invalid_request_error' }
      : { kind: 'text', text: EXHAUSTED_TEXT };
  };

  const notifyWaiters = (): void => {
    const answeredRequests = responseRequests();
    for (const waiter of [...waiters]) {
      const hit = answeredRequests[waiter.n - 1];
      if (hit !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(hit);
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = parseBody(await readBody(req));
    const rec: RecordedResponsesRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      headers: { ...req.headers },
      body,
      receivedAt: Date.now(),
      aborted: false,
      kind: requestKind(req.headers['x-codex-turn-metadata']),
      trueTokens: countResponsesRequestTokens(body),
    };
    requests.push(rec);
    res.on('close', () => {
      if (res.writableFinished) rec.completedAt = Date.now();
      else rec.aborted = true;
    });
    if (rec.method !== 'POST' || rec.path !== '/v1/responses') {
      sendJson(res, 404, errorBody(`scripted responses: no route for ${rec.method} ${rec.path}`, 'invalid_request_error', null, null));
      return;
    }
    let turn: ResponsesTurn;
    try {
      turn = nextTurn(rec);
    } catch (error) {
      turn = { kind: 'http_error', status: 400, message: `scripted responses: script function threw: ${String(error)}`, type: 'invalid_request_error' };
    }
    rec.turn = turn;
    notifyWaiters();
    await answer(res, rec, turn, options);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`scripted responses: ${String(error)}`, 'server_error', null, null));
      else res.destroy();
    });
  });
  // codex keeps connections alive; close() must be able to end every one of them.
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    baseUrl: `${url}/v1`,
    requests,
    responseRequests,
    waitForRequest(n) {
      const hit = responseRequests()[n - 1];
      if (hit !== undefined) return Promise.resolve(hit);
      if (closed) return Promise.reject(new Error('scripted responses closed'));
      return new Promise((resolve, reject) => waiters.push({ n, resolve, reject }));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`scripted responses closed before request ${waiter.n}`));
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await done;
    },
  };
}

async function answer(res: ServerResponse, rec: RecordedResponsesRequest, turn: ResponsesTurn, options: ScriptedResponsesOptions): Promise<void> {
  const responseId = `resp_scripted_${rec.index}`;
  const model = modelOf(rec.body);
  switch (turn.kind) {
    case 'http_error':
      {
        const body = errorBody(turn.message, turn.type ?? 'invalid_request_error', turn.code ?? null, turn.param ?? null);
        sendJson(res, turn.status, turn.errorFields === undefined ? body : { error: { ...(body.error as object), ...turn.errorFields } }, turn.headers);
      }
      return;
    case 'failed':
      res.writeHead(200, sseHeaders());
      for (const event of failedEvents(responseId, model, turn.code, turn.message)) res.write(formatSse(event));
      res.end();
      return;
    case 'stall':
      if (turn.afterHeaders) {
        res.writeHead(200, sseHeaders());
        res.flushHeaders();
      }
      return; // left open until the client gives up or close() destroys the socket
    case 'drop': {
      const events = itemEvents(responseId, model, outputItems({ kind: 'text', text: 'This reply is cut off' }, String(rec.index)));
      res.writeHead(200, sseHeaders());
      for (const event of events.slice(0, turn.afterEvents ?? 0)) res.write(formatSse(event));
      res.flushHeaders();
      // Let the written bytes reach the client before the reset.
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    case 'text':
    case 'calls': {
      const latency = turn.latencyMs ?? options.defaultLatencyMs ?? 0;
      if (latency > 0) {
        await sleep(latency);
        if (res.destroyed) return;
      }
      const items = outputItems(turn, String(rec.index));
      res.writeHead(200, { ...sseHeaders(), ...turn.headers });
      for (const event of itemEvents(responseId, model, items)) res.write(formatSse(event));
      if (turn.completeDelayMs !== undefined && turn.completeDelayMs > 0) {
        await sleep(turn.completeDelayMs);
        if (res.destroyed) return;
      }
      res.end(formatSse(completedEvent(responseId, model, items, replyUsage(options.usage ?? 'computed', rec.trueTokens, items, turn.usage))));
      return;
    }
  }
}

/** `request_kind` from codex's x-codex-turn-metadata header (JSON): "turn", "compaction", ... */
function requestKind(header: string | string[] | undefined): string {
  if (typeof header !== 'string') return 'unknown';
  try {
    const kind = (JSON.parse(header) as { request_kind?: unknown }).request_kind;
    return typeof kind === 'string' ? kind : 'unknown';
  } catch {
    return 'unknown';
  }
}

function modelOf(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : DEFAULT_MODEL;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

