/**
 * Figure 1, stream throughput: debussy's whole stream path (handle-stream.ts) over a generated
 * stream-json transcript, against a bare read-lines + JSON.parse loop over the same file, in the
 * same process, alternating, five passes each. Each side's best pass counts (the one least
 * disturbed by whatever else the machine runs); medians and CPU times are recorded beside.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { formatProfile, profileInProcess, summarizeProfile } from '../lib/cpu-profile.js';
import { figure, MB, median, round, type BenchOptions, type Figure } from '../lib/figure.js';
import { handleBare, handleBarePipe, handleWithDebussy, warmTokenizer, type HandledStream } from '../lib/handle-stream.js';
import { requireFreeSpace, withTempDir } from '../lib/temp.js';
import { writeTranscript } from '../lib/transcript.js';

const TARGET = 0.5;

export async function streamThroughput(options: BenchOptions): Promise<Figure> {
  const size = (options.quick ? 20 : 100) * MB;
  // Five alternating passes: on a shared machine the longer debussy pass is the likelier one to be
  // disturbed, so with fewer passes its best is further from what it costs undisturbed than the bare one's.
  const reps = options.quick ? 3 : 5;
  return withTempDir('throughput', async (dir) => {
    // The transcript, and a raw log of the same size per pass (removed after each pass).
    await requireFreeSpace(dir, size * 2.2);
    const file = path.join(dir, 'transcript.ndjson');
    options.log(`generating a ${size / MB} MB transcript`);
    const stats = await writeTranscript(file, size);
    const vocabularyMs = warmTokenizer();
    const logDir = path.join(dir, 'logs');
    const pass = async (work: () => Promise<HandledStream>): Promise<HandledStream> => {
      const result = await work();
      await rm(logDir, { recursive: true, force: true });
      return result;
    };

    await handleBare(file); // page cache and JIT, for both sides
    const bare: HandledStream[] = [];
    const pipe: HandledStream[] = [];
    const full: HandledStream[] = [];
    const sessionOnly: HandledStream[] = [];
    for (let i = 0; i < reps; i++) {
      options.log(`pass ${i + 1}/${reps}`);
      bare.push(await pass(() => handleBare(file)));
      pipe.push(await pass(() => handleBarePipe(file)));
      full.push(await pass(() => handleWithDebussy(file, logDir)));
    }
    // Once is enough to show the split between the session's own work and the context accounting.
    sessionOnly.push(await pass(() => handleWithDebussy(file, logDir, { accounting: false })));
    const mbps = (ms: number) => round(stats.bytes / MB / (ms / 1000), 1);
    const best = (passes: HandledStream[]) => mbps(Math.min(...passes.map((p) => p.ms)));
    const medianOf = (passes: HandledStream[], key: 'ms' | 'cpuMs') => mbps(median(passes.map((p) => p[key])));
    const leastCpu = (passes: HandledStream[]) => mbps(Math.min(...passes.map((p) => p.cpuMs)));
    const value = best(full);
    const limit = best(bare);
    const met = value / limit >= TARGET;
    const details: Record<string, unknown> = {
      transcript: { mb: round(stats.bytes / MB, 1), lines: stats.lines, turns: stats.turns, toolResults: stats.toolResults, toolOutputMb: round(stats.toolOutputChars / MB, 1) },
      events: full[0]?.events,
      unparsedLines: full[0]?.unparsedLines,
      msDebussy: full.map((p) => Math.round(p.ms)),
      msBare: bare.map((p) => Math.round(p.ms)),
      medianMbPerS: { debussy: medianOf(full, 'ms'), bare: medianOf(bare, 'ms') },
      perCpuSecondMbPerS: { debussy: medianOf(full, 'cpuMs'), bare: medianOf(bare, 'cpuMs'), ratio: round(medianOf(full, 'cpuMs') / medianOf(bare, 'cpuMs'), 3) },
      // Each side's least CPU for a pass: the least disturbed by other work on the machine.
      bestPerCpuSecondMbPerS: { debussy: leastCpu(full), bare: leastCpu(bare), ratio: round(leastCpu(full) / leastCpu(bare), 3) },
      bareThroughPipeMbPerS: best(pipe),
      sessionOnlyMbPerS: best(sessionOnly),
      tokenizerVocabularyMs: Math.round(vocabularyMs),
      note: 'debussy = spawn `cat FILE` + readLineBatches + parseStreamLine + raw/readable logs + ContextMonitor.observe + snapshot() + PlainReporter per event; sessionOnly leaves out the monitor and reporter',
    };
    if (!met) {
      options.log('target missed: profiling one debussy pass');
      const { profile } = await profileInProcess(() => pass(() => handleWithDebussy(file, logDir)));
      const summary = summarizeProfile(profile);
      details.profile = summary;
      options.log(formatProfile(summary));
    }
    return figure({ id: 1, name: 'Stream throughput', value, unit: 'MB/s', limit, target: `ratio >= ${TARGET} (bare read-lines + JSON.parse loop = limit)`, met, details });
  });
}
