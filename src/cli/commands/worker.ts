/** `debussy worker --queue URL [--dir DIR]`: takes phase jobs until SIGTERM or Ctrl-C (src/queue/worker.ts). */
import { homedir } from 'node:os';
import path from 'node:path';
import { stopRunningGit } from '../../git/run-git.js';
import { markChildrenAsOwn } from '../../process/owner-marker.js';
import { tuneHeapForLongRun } from '../../process/heap-tuning.js';
import { queueConnection } from '../../queue/connection.js';
import { runWorker } from '../../queue/worker.js';
import { chooseReporters } from '../../report/choose-reporters.js';
import { createReporters } from '../../report/create-reporters.js';
import { OutputStream } from '../../report/output-stream.js';
import { userStateDir } from '../../state/index.js';

interface WorkerOptions {
  queue: string;
  dir?: string;
}

export default async function workerCommand(options: WorkerOptions): Promise<number> {
  const connection = queueConnection(options.queue);
  const dir = path.resolve(options.dir ?? path.join(userStateDir(process.env, process.platform, homedir()), 'workers', String(process.pid)));
  const stdout = new OutputStream(process.stdout);
  const stderr = new OutputStream(process.stderr);
  tuneHeapForLongRun();
  markChildrenAsOwn();
  const stop = new AbortController();
  const forceStop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) {
      stderr.write(`debussy worker: ${signal} received: stopping the phase in hand, pushing its work and giving its job back (again to end at once)\n`);
      stop.abort();
      stopRunningGit('graceful');
    } else if (!forceStop.signal.aborted) {
      forceStop.abort();
      stopRunningGit('now');
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const choice = chooseReporters({ flags: { plain: true, json: false, verbose: false }, env: process.env, isTTY: false });
  try {
    return await runWorker({
      connection, dir, env: process.env, stop: stop.signal, forceStop: forceStop.signal,
      reporters: () => createReporters(choice, { stdout, warn: (message) => stderr.write(`debussy worker: warning: ${message}\n`) }),
      log: (line) => stdout.write(`debussy worker: ${line}\n`),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
