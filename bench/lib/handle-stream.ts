/**
 * debussy's whole stream path over a transcript file, as `debussy run` takes it: the session
 * spawns `cat FILE` (standing in for claude), reads its stdout line by line, parses and classifies
 * each line, writes the raw and the readable log, and each event goes to a fresh ContextMonitor
 * and, redacted, to the plain reporter with the display snapshot, exactly as session-runner.ts
 * does per event; the logs are redacted as in a run, and the heap is tuned as a run tunes it.
 */
import { createInterface } from 'node:readline';
import { createReadStream } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startAgentSession } from '../../src/agent/index.js';
import { ContextMonitor, countTokens, createDisplaySnapshot } from '../../src/context/index.js';
import { createRedactor } from '../../src/redact/index.js';
import { PlainReporter } from '../../src/report/plain-reporter.js';
import { eventForDisplay } from '../../src/report/display-event.js';
import { LONG_RUN_HEAP_FLAGS } from '../../src/process/heap-tuning.js';
import v8 from 'node:v8';

/** V8's own values of the flags `debussy run` sets (`node --v8-options`), for the bare loops. */
const V8_DEFAULT_HEAP_FLAGS = ['--semi-space-growth-factor=2', '--heap-growing-percent=0'];

/**
 * Runs `work` with the heap flags `debussy run` sets for itself (src/process/heap-tuning.ts), then
 * puts V8's defaults back, so the bare loops beside it run as plain node does.
 */
async function withRunHeapFlags<T>(work: () => Promise<T>): Promise<T> {
  for (const flag of LONG_RUN_HEAP_FLAGS) v8.setFlagsFromString(flag);
  try {
    return await work();
  } finally {
    for (const flag of V8_DEFAULT_HEAP_FLAGS) v8.setFlagsFromString(flag);
  }
}

export interface HandledStream {
  events: number;
  lines: number;
  unparsedLines: number;
  peakContextTokens: number;
  reporterBytes: number;
  ms: number;
  cpuMs: number;
}

/** Builds the tokenizer's vocabulary now, so a timing measures the steady state (reported apart). */
export function warmTokenizer(): number {
  const start = performance.now();
  countTokens('warm up the vocabulary');
  return performance.now() - start;
}

/** `accounting: false` leaves out the monitor and the reporter: the session's own part (parse, classify, logs). */
export function handleWithDebussy(file: string, logDir: string, options: { accounting?: boolean } = {}): Promise<HandledStream> {
  return withRunHeapFlags(() => handle(file, logDir, options));
}

async function handle(file: string, logDir: string, options: { accounting?: boolean }): Promise<HandledStream> {
  const accounting = options.accounting !== false;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let reporterBytes = 0;
  const reporter = new PlainReporter((text) => (reporterBytes += text.length), { verbose: false, timestamps: true });
  const monitor = new ContextMonitor({ thresholdPercent: 80, toolCallThreshold: 0, onLimit: () => undefined });
  const displaySnapshot = createDisplaySnapshot(monitor);
  const redact = createRedactor(process.env);
  const session = startAgentSession({
    command: 'cat', args: [file], cwd: logDir, env: process.env, prompt: '', stopGuard: false, redact,
    rawLogPath: path.join(logDir, 'bench.stream.ndjson'), readableLogPath: path.join(logDir, 'bench.log'),
  });
  let events = 0;
  for await (const event of session.events()) {
    events += 1;
    if (!accounting) continue;
    monitor.observe(event);
    reporter.agent('1', eventForDisplay(event, redact), displaySnapshot(event));
  }
  const end = await session.ended;
  const used = process.cpuUsage(cpu);
  if (end.exitCode !== 0) throw new Error(`bench: cat ${file} ended with ${end.exitCode ?? end.signal ?? '?'}: ${end.stderrTail}`);
  return {
    events, lines: 0, unparsedLines: end.unparsedLines, peakContextTokens: monitor.snapshot().peakTokens, reporterBytes,
    ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000,
  };
}

/** The yardstick: the plainest way to read a file's lines and JSON.parse each one. */
export async function handleBare(file: string): Promise<HandledStream> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    JSON.parse(line);
    lines += 1;
  }
  const used = process.cpuUsage(cpu);
  return { events: 0, lines, unparsedLines: 0, peakContextTokens: 0, reporterBytes: 0, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** The same bare loop reading `cat FILE` through a pipe, as debussy reads claude. */
export async function handleBarePipe(file: string): Promise<HandledStream> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const child = spawn('cat', [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let lines = 0;
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    if (line === '') continue;
    JSON.parse(line);
    lines += 1;
  }
  await exited;
  const used = process.cpuUsage(cpu);
  return { events: 0, lines, unparsedLines: 0, peakContextTokens: 0, reporterBytes: 0, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}
