/**
 * The demo's scripted model server, run in a worker thread. Counting the tokens of each request
 * (js-tiktoken) blocks for a few hundred milliseconds at the start; on the main thread that would
 * delay a Ctrl-C long enough for tsx, which expects its child to acknowledge a signal within
 * ~60 ms, to SIGKILL the demo before it could clean up. In a worker the main thread stays free.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { firstUserText, startScriptedApi } from '../../test/support/scripted-api.js';
import { demoAgent, demoSessionOf } from './agent-script.js';

const ROLE = 'debussy-demo-model-server';

type FromWorker = { type: 'listening'; url: string } | { type: 'restart-prompt'; text: string } | { type: 'closed' };

export interface DemoModelServer {
  url: string;
  /** The first prompt of the restarted session, once it has been sent. */
  restartPrompt(): string | undefined;
  close(): Promise<void>;
}

export function startDemoModelServer(latencyMs: number): Promise<DemoModelServer> {
  // Workers do not inherit tsx's loader: register it in the worker before loading this file. An
  // async function, not top-level await, which eval'd worker code has only on newer Node 20s.
  const code = [
    '(async () => {',
    `  const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});`,
    '  register();',
    `  await import(${JSON.stringify(import.meta.url)});`,
    '})();',
  ].join('\n');
  const worker = new Worker(code, { eval: true, workerData: { role: ROLE, latencyMs } });
  let restartPrompt: string | undefined;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    void exited.then(() => reject(new Error('the demo model server stopped before it listened')));
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'restart-prompt') restartPrompt ??= message.text;
      if (message.type !== 'listening') return;
      resolve({
        url: message.url,
        restartPrompt: () => restartPrompt,
        close: async () => {
          worker.postMessage('close');
          await exited;
        },
      });
    });
  });
}

async function serve(port: NonNullable<typeof parentPort>, latencyMs: number): Promise<void> {
  const post = (message: FromWorker): void => port.postMessage(message);
  const api = await startScriptedApi({
    defaultLatencyMs: latencyMs,
    script: (req) => {
      if (demoSessionOf(req) === 'phase 1 after restart') post({ type: 'restart-prompt', text: firstUserText(req) });
      return demoAgent(req);
    },
  });
  port.on('message', (message) => {
    if (message !== 'close') return;
    void api.close().then(() => port.close());
  });
  post({ type: 'listening', url: api.url });
}

const data = workerData as { role?: unknown; latencyMs?: unknown } | null;
if (!isMainThread && parentPort && data?.role === ROLE) await serve(parentPort, Number(data.latencyMs));
