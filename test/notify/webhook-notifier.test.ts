import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookNotifier, headerValue, renderPersistentFailure, sendPersistentFailure, type PersistentFailureNotification } from '../../src/notify/index.js';
import { createRedactor } from '../../src/redact/index.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  url: string;
  received: Received[];
  close: () => Promise<void>;
}

/** A local HTTP server on 127.0.0.1 (port 0) that records requests and answers with `respond`. */
async function startServer(respond: (res: ServerResponse) => void = (res) => res.end('ok')): Promise<TestServer> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function serve(respond?: (res: ServerResponse) => void): Promise<TestServer> {
  const server = await startServer(respond);
  servers.push(server);
  return server;
}

const notification: PersistentFailureNotification = {
  title: 'debussy stopped the run: authentication failed',
  runId: 'r1',
  failures: [{ class: 'authentication', message: 'Invalid API key · Fix external API key', at: Date.UTC(2026, 0, 2, 3, 4, 5) }],
  nextSteps: ['Check ANTHROPIC_API_KEY.'],
  exitCode: 3,
  priority: 'urgent',
};

describe('webhook notifier', () => {
  it('ntfy: POSTs the text with Title, Priority and Tags headers', async () => {
    const server = await serve();
    const outcome = await createWebhookNotifier({ url: `${server.url}/debussy-alerts`, format: 'ntfy' }).send(renderPersistentFailure(notification));
    expect(outcome).toEqual({ notifier: 'webhook (ntfy)', status: 'sent' });
    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request).toMatchObject({ method: 'POST', url: '/debussy-alerts' });
    expect(request?.headers).toMatchObject({ title: 'debussy stopped the run: authentication failed', priority: 'urgent', tags: 'debussy,authentication' });
    expect(request?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(request?.body).toContain('2026-01-02T03:04:05.000Z authentication: Invalid API key · Fix external API key');
    expect(request?.body).toContain('1. Check ANTHROPIC_API_KEY.');
  });

  it('ntfy: a non-ASCII title travels as an RFC 2047 encoded word', async () => {
    const server = await serve();
    await createWebhookNotifier({ url: server.url }).send(renderPersistentFailure({ ...notification, title: 'phase « 3 » stopped — crash loop' }));
    const title = String(server.received[0]?.headers.title);
    expect(title).toMatch(/^=\?UTF-8\?B\?.+\?=$/);
    expect(Buffer.from(title.slice(10, -2), 'base64').toString('utf8')).toBe('phase « 3 » stopped — crash loop');
    expect(headerValue('plain\r\nInjected: yes')).toBe('plain Injected: yes');
  });

  it('json: POSTs the message and the structured notification', async () => {
    const server = await serve();
    const outcome = await createWebhookNotifier({ url: server.url, format: 'json', headers: { Authorization: 'Bearer abc' } }).send(renderPersistentFailure(notification));
    expect(outcome.status).toBe('sent');
    const request = server.received[0];
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBe('Bearer abc');
    const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({ title: notification.title, priority: 'urgent', tags: ['debussy', 'authentication'], notification: { runId: 'r1', exitCode: 3 } });
    expect(String(body.message)).toContain('Invalid API key');
  });

  it('reports an HTTP error status', async () => {
    const server = await serve((res) => {
      res.statusCode = 500;
      res.end('nope');
    });
    await expect(createWebhookNotifier({ url: server.url }).send(renderPersistentFailure(notification))).resolves.toEqual({ notifier: 'webhook (ntfy)', status: 'failed', detail: 'HTTP 500' });
  });

  it('gives up after its timeout when the server never answers', async () => {
    const server = await serve(() => {
      // never respond
    });
    const outcome = await createWebhookNotifier({ url: server.url, timeoutMs: 200 }).send(renderPersistentFailure(notification));
    expect(outcome).toEqual({ notifier: 'webhook (ntfy)', status: 'failed', detail: 'timed out after 200 ms' });
    expect(server.received).toHaveLength(1);
  });

  it('reports a refused connection without revealing the URL', async () => {
    const server = await serve();
    const url = `${server.url}/secret-topic-name`;
    await server.close();
    servers = [];
    const outcome = await createWebhookNotifier({ url }).send(renderPersistentFailure(notification));
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toMatch(/ECONNREFUSED/);
    expect(outcome.detail).not.toContain('secret-topic-name');
  });

  it('a user:password in the URL goes as Basic authentication, not in the URL', async () => {
    const server = await serve();
    const url = server.url.replace('http://', 'http://alerts:p%40ss-w0rd@') + '/topic?x=1';
    const outcome = await createWebhookNotifier({ url }).send(renderPersistentFailure(notification));
    expect(outcome).toEqual({ notifier: 'webhook (ntfy)', status: 'sent' });
    expect(server.received[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alerts:p@ss-w0rd').toString('base64')}`);
    expect(server.received[0]?.url).toBe('/topic?x=1');
  });

  it.each([
    ['a URL that cannot be parsed', 'http://[bad-host/hook?auth=QWxhZGRpbjpvcGVu&token=tok-123456', 'Failed to parse URL from the webhook URL (ERR_INVALID_URL)'],
    ['a scheme fetch does not take', 'ftp://alerts:hunter2pass@127.0.0.1/hook?key=k3y-value-123', 'fetch failed'],
  ])('%s: the failure never quotes the URL', async (_name, url, detail) => {
    const outcome = await createWebhookNotifier({ url }).send(renderPersistentFailure(notification));
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toBe(detail);
    for (const part of ['QWxhZGRp', 'tok-123', 'hunter2', 'k3y-value', 'bad-host', '127.0.0.1']) expect(outcome.detail).not.toContain(part);
  });

  it('a secret on the cut of a long failure message is redacted before the cut', async () => {
    const server = await serve();
    const redact = createRedactor({ DEPLOY_TOKEN: 'env-secret-value-0123456789' });
    // The rendering keeps 239 characters of a message: this value starts at 229.
    const message = `${'m'.repeat(228)} env-secret-value-0123456789 and more`;
    await sendPersistentFailure({ ...notification, failures: [{ class: 'unknown', message, at: 0 }] }, [createWebhookNotifier({ url: server.url })], { redact });
    expect(server.received[0]?.body).toContain('[REDACTED');
    expect(server.received[0]?.body).not.toContain('env-secret');
  });

  it('through sendPersistentFailure, the posted body is redacted', async () => {
    const server = await serve();
    const redact = createRedactor({ ANTHROPIC_API_KEY: 'sk-ant-live-key-999999' });
    await sendPersistentFailure(
      { ...notification, failures: [{ class: 'authentication', message: 'rejected key sk-ant-live-key-999999', at: 0 }] },
      [createWebhookNotifier({ url: server.url, format: 'json' })],
      { redact },
    );
    expect(server.received[0]?.body).not.toContain('sk-ant-live-key-999999');
    expect(server.received[0]?.body).toContain('[REDACTED:ANTHROPIC_API_KEY]');
  });
});
