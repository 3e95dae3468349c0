import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseBody, readBody, sendJson, sseHeaders } from '../scripted-http/http-helpers.js';
import { errorBody, formatSse, replyChunk, replyParts, usageMetadata } from './replies.js';
import { countGeminiRequestTokens } from './tokens.js';
import type { GeminiTurn, RecordedGeminiRequest, ScriptedGemini, ScriptedGeminiOptions } from './types.js';

const EXHAUSTED_TEXT = 'Done.';
/** The answer to a non-streaming generateContent (gemini's compression asks one for its summary). */
export const SIDE_REPLY_TEXT = '<state_snapshot>scripted summary</state_snapshot>';
// `/v1beta/models/gemini-2.5-pro:streamGenerateContent`
const MODEL_ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/;

export async function startScriptedGemini(options: ScriptedGeminiOptions): Promise<ScriptedGemini> {
  const requests: RecordedGeminiRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: (r: RecordedGeminiRequest) => void; reject: (e: Error) => void }> = [];
  let answered = 0;
  let closed = false;

  const modelRequests = (): RecordedGeminiRequest[] => requests.filter((r) => r.turn !== undefined);

  const nextTurn = (rec: RecordedGeminiRequest): GeminiTurn => {
    const index = answered++;
    if (typeof options.script === 'function') return options.script(rec, index);
    const turn = options.script[index];
    if (turn !== undefined) return turn;
    return options.onExhausted === 'error'
      ? { kind: 'http_error', status: 400, message: `scripted gemini: script exhausted at request ${index + 1}` }
      : { kind: 'text', text: EXHAUSTED_TEXT };
  };

  const notifyWaiters = (): void => {
    const answeredRequests = modelRequests();
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
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = MODEL_ROUTE.exec(path);
    const rec: RecordedGeminiRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      model: route?.[1],
      action: route?.[2],
      headers: { ...req.headers },
      body,
      receivedAt: Date.now(),
      aborted: false,
      trueTokens: countGeminiRequestTokens(body),
    };
    requests.push(rec);
    res.on('close', () => {
      if (!res.writableFinished) rec.aborted = true;
    });
    if (rec.method === 'POST' && rec.action === 'countTokens') {
      sendJson(res, 200, { totalTokens: rec.trueTokens });
      return;
    }
    if (rec.method === 'POST' && rec.action === 'generateContent') {
      // gemini's own side requests (its history compression's summary): answered, never from the script.
      const parts = [{ text: SIDE_REPLY_TEXT }];
      sendJson(res, 200, replyChunk(`resp-side-${rec.index}`, rec.model ?? 'gemini-scripted', parts, usageMetadata(rec.trueTokens, parts)));
      return;
    }
    if (rec.method !== 'POST' || rec.action !== 'streamGenerateContent') {
      sendJson(res, 404, errorBody(404, `scripted gemini: no route for ${rec.method} ${path}`));
      return;
    }
    let turn: GeminiTurn;
    try {
      turn = nextTurn(rec);
    } catch (error) {
      turn = { kind: 'http_error', status: 400, message: `scripted gemini: script function threw: ${String(error)}` };
    }
    rec.turn = turn;
    notifyWaiters();
    await answer(res, rec, turn);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `scripted gemini: ${String(error)}`));
      else res.destroy();
    });
  });
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
    requests,
    modelRequests,
    waitForRequest(n) {
      const hit = modelRequests()[n - 1];
      if (hit !== undefined) return Promise.resolve(hit);
      if (closed) return Promise.reject(new Error('scripted gemini closed'));
      return new Promise((resolve, reject) => waiters.push({ n, resolve, reject }));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`scripted gemini closed before request ${waiter.n}`));
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await done;
    },
  };
}

async function answer(res: ServerResponse, rec: RecordedGeminiRequest, turn: GeminiTurn): Promise<void> {
  switch (turn.kind) {
    case 'http_error':
      sendJson(res, turn.status, errorBody(turn.status, turn.message, turn.rpcStatus, turn.details), turn.headers);
      return;
    case 'stall':
      if (turn.afterHeaders) {
        res.writeHead(200, sseHeaders());
        res.flushHeaders();
      }
      return; // left open until the client gives up or close() destroys the socket
    case 'text':
    case 'calls': {
      if (turn.latencyMs !== undefined && turn.latencyMs > 0) {
        await sleep(turn.latencyMs);
        if (res.destroyed) return;
      }
      const parts = replyParts(turn);
      res.writeHead(200, { ...sseHeaders(), ...turn.headers });
      res.end(formatSse(replyChunk(`resp-scripted-${rec.index}`, rec.model ?? 'gemini-scripted', parts, usageMetadata(rec.trueTokens, parts, turn.usage))));
      return;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
