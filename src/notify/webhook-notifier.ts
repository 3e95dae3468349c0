/**
 * A webhook notification: ntfy-style (POST the text, with Title / Priority / Tags headers) or a
 * generic JSON POST. Bounded by a timeout. The URL often holds a secret (a topic name, a Slack
 * hook path, an `?auth=` parameter, a password), so it never appears in an outcome's detail: an
 * error that quotes it has it replaced. A `user:password@` in the URL is sent as Basic
 * authentication (fetch refuses a URL that carries it).
 */
import type { NotificationMessage } from './notification.js';
import type { Notifier, NotifierOutcome } from './notifier.js';
import { errorMessage } from '../errors/error-message.js';

export type WebhookFormat = 'ntfy' | 'json';

export interface WebhookNotifierOptions {
  url: string;
  format?: WebhookFormat;
  timeoutMs?: number;
  /** Extra headers, e.g. an Authorization header for a private ntfy server. */
  headers?: Readonly<Record<string, string>>;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** HTTP header values must be Latin-1: anything else goes as an RFC 2047 encoded word (ntfy decodes these). */
export function headerValue(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

function requestFor(message: NotificationMessage, format: WebhookFormat): { headers: Record<string, string>; body: string } {
  if (format === 'json') {
    return {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: message.title, message: message.body, priority: message.priority, tags: message.tags, notification: message.data }),
    };
  }
  return {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      Title: headerValue(message.title),
      Priority: message.priority,
      Tags: headerValue(message.tags.join(',')),
    },
    body: message.body,
  };
}

const URL_SHOWN_AS = 'the webhook URL';

/** An error's words without the URL: as configured, as fetch normalised it, or any URL at all. */
function withoutUrl(text: string, url: string): string {
  let out = url === '' ? text : text.split(url).join(URL_SHOWN_AS);
  try {
    out = out.split(new URL(url).href).join(URL_SHOWN_AS);
  } catch {
    // not a URL: the configured text was replaced above
  }
  return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, URL_SHOWN_AS);
}

function describeFailure(error: unknown, timeoutMs: number, url: string): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return withoutUrl(`${errorMessage(error)}${code}`, url);
}

/** The URL fetch is given, and the Authorization its `user:password@` part becomes. */
export function webhookTarget(url: string): { url: string; authorization?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  if (parsed.username === '' && parsed.password === '') return { url };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` };
}

export function createWebhookNotifier(options: WebhookNotifierOptions): Notifier {
  const format = options.format ?? 'ntfy';
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const name = `webhook (${format})`;
  return {
    name,
    async send(message: NotificationMessage): Promise<NotifierOutcome> {
      const request = requestFor(message, format);
      const target = webhookTarget(options.url);
      try {
        const response = await fetch(target.url, {
          method: 'POST',
          headers: { ...request.headers, ...(target.authorization === undefined ? {} : { Authorization: target.authorization }), ...options.headers },
          body: request.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        // Read the answer to release the connection; its content does not matter.
        await response.arrayBuffer().catch(() => undefined);
        return response.ok ? { notifier: name, status: 'sent' } : { notifier: name, status: 'failed', detail: `HTTP ${response.status}` };
      } catch (error) {
        return { notifier: name, status: 'failed', detail: describeFailure(error, timeoutMs, options.url) };
      }
    },
  };
}
