/**
 * Figure 2, memory: peak RSS of the `debussy run` process (the built binary, plain node) while it
 * runs one session whose agent prints a 1 GB stream-json transcript, beside the same for 100 MB.
 * The "agent" is a script that cats the transcript and then signals `debussy done`, so the
 * whole path runs: session, parser, logs, context monitor with a snapshot per event, reporter,
 * journal, gates and commit. The peak is VmHWM read at the process's exit (exit-probe.ts); the
 * parent also samples its RSS over time to show whether it is flat. Two diagnostics explain the
 * peak: the heap retained after GC with and without the context accounting, and the smallest
 * old-space cap the 100 MB run survives.
 */
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { E2EProject, eventsOf } from '../../test/e2e/e2e-project.js';
import { handleWithDebussy, warmTokenizer } from '../lib/handle-stream.js';
import { debussyCommandOf, installExitProbe } from '../lib/exit-probe.js';
import { figure, MB, round, type BenchOptions, type Figure } from '../lib/figure.js';
import { requireFreeSpace, withTempDir } from '../lib/temp.js';
import { writeTranscript } from '../lib/transcript.js';

const LIMIT_MB = 150;
/** "Flat": the large transcript's peak at most this much above the small one's. */
const FLAT_GROWTH = 0.1;
/** Old-space caps (MB) tried in turn: the first that completes bounds the live data from above. */
const HEAP_CAPS_MB = [48, 72, 96];

interface SizeResult {
  peakMb: number;
  atExitMb: Record<string, number>;
  samplesMb: number[];
  seconds: number;
  sessions: number;
}

function rssMbOf(pid: number): number | undefined {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** At most `n` samples, evenly picked, so the figure stays readable. */
function thin(samples: number[], n = 12): number[] {
  if (samples.length <= n) return samples;
  return Array.from({ length: n }, (_, i) => samples[Math.round((i * (samples.length - 1)) / (n - 1))] as number);
}

/** `nodeOptions`: extra node flags for the debussy process (a diagnostic run with a capped heap). */
async function runOnce(dir: string, transcript: string, nodeOptions = ''): Promise<SizeResult> {
  const agent = path.join(dir, 'cat-agent.sh');
  writeFileSync(agent, `#!/bin/sh\ncat "${transcript}"\ndebussy done --phase 1 >/dev/null 2>&1\n`);
  chmodSync(agent, 0o755);
  // A 1,000,000-token window: the transcript's usage (up to ~190,000) never crosses, so the one
  // session reads the whole file.
  const project = await E2EProject.create({ phases: [{ id: '1', title: 'One long session' }], script: [], config: { claude_command: agent, context_window: 1_000_000, max_context_tokens: 0, tool_call_threshold: 1_000_000_000, stall_timeout: '10m' } });
  try {
    const probe = installExitProbe(dir);
    const start = performance.now();
    const env = { ...probe.env, NODE_OPTIONS: `${probe.env.NODE_OPTIONS ?? ''} ${nodeOptions}`.trim() };
    const { child, done } = project.start(['run', project.planArg], env);
    const samplesMb: number[] = [];
    const sampler = setInterval(() => {
      const rss = child.pid === undefined ? undefined : rssMbOf(child.pid);
      if (rss !== undefined) samplesMb.push(round(rss, 1));
    }, 250);
    const result = await done;
    clearInterval(sampler);
    if (result.code !== 0) throw new Error(`bench: debussy run exited ${result.code ?? result.signal ?? '?'}: ${result.stdout.slice(-3000)} ${result.stderr.slice(-2000)}`);
    const run = probe.records().find((r) => debussyCommandOf(r) === 'run');
    if (!run) throw new Error('bench: the exit probe saw no `debussy run` process');
    const ended = eventsOf(await project.journal(), 'session_ended');
    const memory = run.memoryAtExit;
    return {
      peakMb: round(run.vmHwmKb / 1024, 1), samplesMb, seconds: round((performance.now() - start) / 1000, 1), sessions: ended.length,
      atExitMb: { rss: round(memory.rss / MB, 1), heapTotal: round(memory.heapTotal / MB, 1), heapUsed: round(memory.heapUsed / MB, 1), external: round(memory.external / MB, 1) },
    };
  } finally {
    await project.dispose();
  }
}

/**
 * What the stream path keeps alive: JS heap retained after a full GC, in this process, handling
 * `file` with and without the context accounting (monitor + reporter). Explains growth, if any.
 */
async function retainedHeapMb(file: string, logDir: string): Promise<Record<string, number>> {
  v8.setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  warmTokenizer();
  const retained: Record<string, number> = {};
  for (const accounting of [false, true]) {
    gc();
    const before = process.memoryUsage().heapUsed;
    await handleWithDebussy(file, logDir, { accounting });
    gc();
    retained[accounting ? 'withContextAccounting' : 'sessionOnly'] = round((process.memoryUsage().heapUsed - before) / MB, 1);
    await rm(logDir, { recursive: true, force: true });
  }
  return retained;
}

/**
 * If the peak is V8's headroom rather than live data, a capped heap brings it down; if the live
 * data does not fit, the run dies of "heap out of memory". The first cap that works is reported.
 */
async function smallestWorkingHeap(dir: string, file: string, options: BenchOptions): Promise<Record<string, unknown>> {
  const failed: number[] = [];
  for (const cap of HEAP_CAPS_MB) {
    options.log(`debussy run with --max-old-space-size=${cap}`);
    try {
      const result = await runOnce(dir, file, `--max-old-space-size=${cap} --max-semi-space-size=4`);
      return { oldSpaceCapMb: cap, peakMb: result.peakMb, seconds: result.seconds, outOfMemoryAtMb: failed };
    } catch {
      failed.push(cap);
    }
  }
  return { outOfMemoryAtMb: failed };
}

export async function memory(options: BenchOptions): Promise<Figure> {
  const small = (options.quick ? 20 : 100) * MB;
  const large = (options.quick ? 200 : 1024) * MB;
  return withTempDir('memory', async (dir) => {
    // The larger transcript, and the raw session log debussy writes while reading it.
    await requireFreeSpace(dir, large * 2.1);
    const results: Record<'small' | 'large', SizeResult | undefined> = { small: undefined, large: undefined };
    let retained: Record<string, number> = {};
    let capped: Record<string, unknown> = {};
    for (const [label, size] of [['small', small], ['large', large]] as const) {
      const file = path.join(dir, `${label}.ndjson`);
      options.log(`generating a ${size / MB} MB transcript`);
      await writeTranscript(file, size, label === 'small' ? 11 : 13);
      options.log(`debussy run over ${size / MB} MB`);
      results[label] = await runOnce(dir, file);
      if (label === 'small' && results.small !== undefined) {
        options.log(`heap retained over ${size / MB} MB, in-process, with and without context accounting`);
        retained = await retainedHeapMb(file, path.join(dir, 'logs'));
        capped = await smallestWorkingHeap(dir, file, options);
      }
      await rm(file, { force: true });
    }
    const smallPeak = results.small?.peakMb ?? Number.NaN;
    const largePeak = results.large?.peakMb ?? Number.NaN;
    const growth = (largePeak - smallPeak) / smallPeak;
    const met = largePeak < LIMIT_MB && growth <= FLAT_GROWTH;
    return figure({
      id: 2, name: 'Memory (peak RSS)', value: largePeak, unit: 'MB', limit: LIMIT_MB,
      target: `< ${LIMIT_MB} MB at ${large / MB} MB of transcript, and flat (at most ${FLAT_GROWTH * 100}% above the ${small / MB} MB peak)`, met,
      details: {
        [`peakMbAt${small / MB}MB`]: smallPeak,
        [`peakMbAt${large / MB}MB`]: largePeak,
        growthPercent: round(growth * 100, 1),
        [`heapRetainedAfterGcMbAt${small / MB}MB`]: retained,
        [`cappedHeapAt${small / MB}MB`]: capped,
        memoryAtExitMb: { small: results.small?.atExitMb, large: results.large?.atExitMb },
        rssSamplesMb: { small: thin(results.small?.samplesMb ?? []), large: thin(results.large?.samplesMb ?? []) },
        seconds: { small: results.small?.seconds, large: results.large?.seconds },
        note: 'VmHWM of the `debussy run` process at its exit (node, debussy, the tokenizer vocabulary and everything the session held)',
      },
    });
  });
}
