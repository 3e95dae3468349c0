/**
 * A JSON-RPC client for the real `codex app-server` over stdio, for harness tests: requests with
 * promised answers, every message kept with its arrival time, server requests answered the way
 * debussy would (declined). Built on debussy's own codec (src/agent/codex/app-server-protocol.ts).
 */
import {
  INITIALIZED_NOTIFICATION,
  answerServerRequest,
  classifyMessage,
  encodeMessage,
  initializeRequest,
  threadOfResponse,
  threadResumeRequest,
  threadStartRequest,
  turnIdOfResponse,
  turnInterruptRequest,
  turnStartRequest,
  type AppServerMessage,
  type ThreadSettings,
} from '../../src/agent/codex/app-server-protocol.js';
import { spawnCodex, type RunningCodex, type TimedLine } from './codex.js';

export interface AppServerClient {
  codex: RunningCodex;
  /** Sends a request; resolves with its result, rejects with its error. */
  request(build: (id: number) => Record<string, unknown>): Promise<unknown>;
  /** Notifications so far, in order, with their arrival time. */
  notifications(method?: string): Array<{ at: number; method: string; params: Record<string, unknown> }>;
  waitForNotification(method: string, predicate?: (params: Record<string, unknown>) => boolean): Promise<{ at: number; params: Record<string, unknown> }>;
  /** initialize + initialized + thread/start: the thread id. */
  startThread(settings: ThreadSettings): Promise<string>;
  resumeThread(threadId: string, settings: ThreadSettings): Promise<string>;
  startTurn(threadId: string, prompt: string): Promise<string>;
  interrupt(threadId: string, turnId: string): Promise<unknown>;
  /** EOF on stdin: codex ends (exit 0) and kills what its tools left running. */
  close(): void;
}

export interface AppServerOptions {
  cwd: string;
  home: string;
  /** Flags after `app-server` (e.g. `-c key=value`). */
  args?: string[];
  timeoutMs?: number;
}

export function startAppServer(opts: AppServerOptions): AppServerClient {
  const codex = spawnCodex({ cwd: opts.cwd, home: opts.home, args: ['app-server', ...(opts.args ?? [])], stdin: 'pipe', timeoutMs: opts.timeoutMs });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const seen: Array<{ at: number; message: AppServerMessage }> = [];
  const waiters: Array<{ method: string; predicate: (p: Record<string, unknown>) => boolean; resolve: (v: { at: number; params: Record<string, unknown> }) => void }> = [];
  let processed = 0;

  const drain = (): void => {
    for (; processed < codex.lines.length; processed++) handle(codex.lines[processed]!);
  };
  const handle = (line: TimedLine): void => {
    const message = classifyMessage(line.value);
    if (message === undefined) return;
    seen.push({ at: line.at, message });
    if (message.kind === 'response' || message.kind === 'error_response') {
      const waiter = typeof message.id === 'number' ? pending.get(message.id) : undefined;
      if (waiter === undefined) return;
      pending.delete(message.id as number);
      if (message.kind === 'response') waiter.resolve(message.result);
      else waiter.reject(new Error(`app-server error ${message.code ?? ''}: ${message.message}`));
    } else if (message.kind === 'server_request') {
      codex.write(encodeMessage(answerServerRequest(message)));
    } else {
      for (const waiter of [...waiters]) {
        if (waiter.method === message.method && waiter.predicate(message.params)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve({ at: line.at, params: message.params });
        }
      }
    }
  };
  codex.child.stdout?.on('data', () => setImmediate(drain));
  void codex.done.then(() => {
    drain();
    for (const [, waiter] of pending) waiter.reject(new Error('app-server exited'));
    pending.clear();
  });

  const request = (build: (id: number) => Record<string, unknown>): Promise<unknown> => {
    const id = nextId++;
    const promise = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
    codex.write(encodeMessage(build(id)));
    return promise;
  };
  const notifications = (method?: string) =>
    seen.flatMap(({ at, message }) => (message.kind === 'notification' && (method === undefined || message.method === method) ? [{ at, method: message.method, params: message.params }] : []));

  const client: AppServerClient = {
    codex,
    request,
    notifications,
    waitForNotification(method, predicate = () => true) {
      drain();
      const hit = notifications(method).find((n) => predicate(n.params));
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        waiters.push({ method, predicate, resolve });
        void codex.done.then(() => reject(new Error(`app-server exited before ${method}`)));
      });
    },
    async startThread(settings) {
      await request((id) => initializeRequest(id, { name: 'debussy-test', version: '0.0.0' }));
      codex.write(encodeMessage(INITIALIZED_NOTIFICATION));
      const thread = threadOfResponse(await request((id) => threadStartRequest(id, settings)));
      if (thread === undefined) throw new Error('thread/start answered without a thread');
      return thread.threadId;
    },
    async resumeThread(threadId, settings) {
      await request((id) => initializeRequest(id, { name: 'debussy-test', version: '0.0.0' }));
      codex.write(encodeMessage(INITIALIZED_NOTIFICATION));
      const thread = threadOfResponse(await request((id) => threadResumeRequest(id, threadId, settings)));
      if (thread === undefined) throw new Error('thread/resume answered without a thread');
      return thread.threadId;
    },
    async startTurn(threadId, prompt) {
      const turnId = turnIdOfResponse(await request((id) => turnStartRequest(id, threadId, prompt)));
      if (turnId === undefined) throw new Error('turn/start answered without a turn');
      return turnId;
    },
    interrupt(threadId, turnId) {
      return request((id) => turnInterruptRequest(id, threadId, turnId));
    },
    close() {
      codex.closeStdin();
    },
  };
  return client;
}
