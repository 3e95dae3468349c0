import type { IncomingMessage } from 'node:http';

export type Route = 'head' | 'messages' | 'count_tokens' | 'other';

export function routeOf(req: IncomingMessage): Route {
  const path = pathOf(req.url);
  if (req.method === 'HEAD') return 'head';
  if (req.method === 'POST' && path === '/v1/messages/count_tokens') return 'count_tokens';
  if (req.method === 'POST' && path === '/v1/messages') return 'messages';
  return 'other';
}

export function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}

/**
 * Whether a POST /v1/messages is a turn of the agent loop (the script answers it) rather than a
 * side request of the CLI. Measured with claude 2.1.197: every agent-loop request, streaming or the
 * non-streaming retry after a dropped stream, carries the tool list; side requests do not.
 */
export function isMainLoopRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const tools = (body as { tools?: unknown }).tools;
  return Array.isArray(tools) && tools.length > 0;
}

export function wantsStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

export function modelOf(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : 'claude-scripted';
}
