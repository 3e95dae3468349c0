/**
 * Where the queue is: a Redis URL (`redis://host:port/db`, `rediss://` for TLS, or
 * `unix:///path/to/redis.sock`) made into BullMQ's connection options, and the settings every
 * queue client of debussy shares. Connections retry for ever: a Redis that goes away is waited for,
 * never a reason to drop a run (BullMQ's workers need maxRetriesPerRequest null for that).
 */
import { DebussyError, UsageError } from '../errors/index.js';

/** The one queue debussy's submitters and workers share on a Redis. */
export const PHASE_QUEUE = 'debussy-phases';

export interface QueueConnection {
  /** BullMQ's (ioredis's) connection options. */
  options: Record<string, unknown>;
  /** The URL with any password hidden: what messages show. */
  shown: string;
}

/** Waits between reconnection attempts: quick at first, then every 2 s, for ever. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(2000, 100 * 2 ** Math.max(0, attempt - 1));
}

export function queueConnection(url: string): QueueConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--queue ${JSON.stringify(url)} is not a URL`, 'Give the Redis URL, e.g. --queue redis://127.0.0.1:6379 (or unix:///path/to/redis.sock).');
  }
  const shown = parsed.password === '' ? url : url.replace(`:${parsed.password}@`, ':***@');
  const common = { maxRetriesPerRequest: null, enableOfflineQueue: true, retryStrategy: reconnectDelayMs, connectionName: 'debussy' };
  if (parsed.protocol === 'unix:') {
    if (parsed.pathname === '') throw new UsageError(`--queue ${shown} names no socket`, 'Give the socket path, e.g. --queue unix:///run/redis/redis.sock.');
    return { options: { ...common, path: decodeURIComponent(parsed.pathname) }, shown };
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new UsageError(`--queue ${shown}: debussy's queue is on Redis, and ${parsed.protocol} is not a Redis URL`, 'Give redis://host:port, rediss://host:port (TLS) or unix:///path/to/redis.sock.');
  }
  return { options: { ...common, url }, shown };
}

/** How long a worker's hold on a job lasts without renewal: a worker killed mid-phase loses its job this long after (DEBUSSY_QUEUE_LOCK_MS; 30 s). */
export function lockDurationMs(env: NodeJS.ProcessEnv): number {
  const raw = env.DEBUSSY_QUEUE_LOCK_MS;
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(value) && value >= 1000 ? value : 30_000;
}

/** How long a first connection may take before the command gives up (DEBUSSY_QUEUE_CONNECT_MS; 15 s). */
export function connectTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.DEBUSSY_QUEUE_CONNECT_MS);
  return Number.isInteger(value) && value >= 100 ? value : 15_000;
}

/**
 * Resolves once `client` is connected; a Redis not there at the start is a wrong URL or a queue
 * not up, said in one line, not waited for in silence (later, a Redis that goes away is waited for).
 */
export async function requireConnected(client: { waitUntilReady: () => Promise<unknown> }, connection: QueueConnection, env: NodeJS.ProcessEnv): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), connectTimeoutMs(env));
  });
  try {
    const first = await Promise.race([client.waitUntilReady().then(() => 'ready' as const), timeout]);
    if (first === 'timeout') {
      throw new DebussyError('E_QUEUE_UNREACHABLE', `the queue's Redis at ${connection.shown} did not answer within ${Math.round(connectTimeoutMs(env) / 1000)} s`, {
        exitKind: 'queueUnreachable', hint: 'Check the URL and that Redis is running and reachable from here (redis-cli -u URL ping).',
      });
    }
  } finally {
    clearTimeout(timer);
  }
}
