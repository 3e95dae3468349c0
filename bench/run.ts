/**
 * `npm run bench`: runs the benchmark figures (1-6, 8, 9), prints them and writes bench/results.json.
 *
 *   npm run bench                  every figure
 *   npm run bench -- --only 3      one figure (or --only 1,6); merged into the existing results
 *   BENCH_QUICK=1 npm run bench    smaller inputs and fewer runs, same method (or: -- --quick)
 *
 * Each figure is a ratio against a limit measured in the same run. Nothing here is a test: a
 * missed target is printed and recorded, and the exit code is 0 unless a benchmark itself broke.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLAUDE_BIN } from '../test/support/claude.js';
import { streamThroughput } from './figures/1-throughput.js';
import { memory } from './figures/2-memory.js';
import { contextAccuracy } from './figures/3-context-accuracy.js';
import { stopPrecision } from './figures/4-stop-precision.js';
import { restartTurnaround } from './figures/5-restart-turnaround.js';
import { commandStartup } from './figures/6-startup.js';
import { parallelMakespan } from './figures/8-parallel.js';
import { queueMakespan } from './figures/9-queue.js';
import type { BenchOptions, Figure, FigureRunner } from './lib/figure.js';

const RESULTS = path.join(import.meta.dirname, 'results.json');

const FIGURES: { id: number; name: string; run: FigureRunner }[] = [
  { id: 1, name: 'Stream throughput', run: streamThroughput },
  { id: 2, name: 'Memory (peak RSS)', run: memory },
  { id: 3, name: 'Context accuracy', run: contextAccuracy },
  { id: 4, name: 'Stop precision', run: stopPrecision },
  { id: 5, name: 'Restart turnaround', run: restartTurnaround },
  { id: 6, name: 'Command start-up', run: commandStartup },
  { id: 8, name: 'Phases at once (--parallel 6)', run: parallelMakespan },
  { id: 9, name: 'Job queue (3 workers)', run: queueMakespan },
];

interface Results {
  machine: Record<string, unknown>;
  date: string;
  quick: boolean;
  /** Each figure with when it was measured and whether in a quick run (a partial run keeps older ones). */
  figures: (Figure & { date: string; quick: boolean })[];
}

function selectedIds(argv: string[]): Set<number> {
  const at = argv.indexOf('--only');
  if (at === -1) return new Set(FIGURES.map((f) => f.id));
  const ids = (argv[at + 1] ?? '').split(',').map(Number).filter((id) => FIGURES.some((f) => f.id === id));
  if (ids.length === 0) throw new Error(`--only takes figure numbers ${FIGURES.map((f) => f.id).join(', ')}, e.g. --only 3 or --only 1,6`);
  return new Set(ids);
}

function versionOf(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    claude: versionOf(CLAUDE_BIN, ['--version']),
    git: versionOf('git', ['--version']),
  };
}

function formatValue(value: number): string {
  return Number.isFinite(value) ? String(value) : '-';
}

function formatFigure(f: Figure): string {
  const ratio = f.ratio === null ? '' : `  ratio ${f.ratio}`;
  return `${f.met ? 'met   ' : 'MISSED'}  ${f.id}. ${f.name}: ${formatValue(f.value)} ${f.unit}  (limit ${formatValue(f.limit)} ${f.unit}${ratio}; target ${f.target})`;
}

function previousFigures(): Results['figures'] {
  if (!existsSync(RESULTS)) return [];
  try {
    return (JSON.parse(readFileSync(RESULTS, 'utf8')) as Results).figures ?? [];
  } catch {
    return [];
  }
}

async function main(): Promise<number> {
  const ids = selectedIds(process.argv.slice(2));
  const quick = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');
  const started = Date.now();
  const options: BenchOptions = {
    quick,
    log: (text) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`),
  };
  const results: Results = { machine: machine(), date: new Date().toISOString(), quick, figures: [] };
  console.log(`debussy benchmarks${quick ? ' (BENCH_QUICK)' : ''} on ${String(results.machine.cpu)} x${String(results.machine.cores)}, node ${process.version}, ${String(results.machine.claude)}`);
  let broken = 0;
  for (const spec of FIGURES.filter((f) => ids.has(f.id))) {
    console.log(`\n== ${spec.id}. ${spec.name}`);
    const t0 = Date.now();
    let result: Figure;
    try {
      result = await spec.run(options);
    } catch (error) {
      broken += 1;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.log(`  the benchmark broke: ${message}`);
      result = { id: spec.id, name: spec.name, value: Number.NaN, unit: '', limit: Number.NaN, ratio: null, target: '', met: false, details: { error: message } };
    }
    console.log(formatFigure(result));
    console.log(`  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    results.figures.push({ ...result, date: new Date().toISOString(), quick });
  }
  // A partial run keeps the other figures of the last full run (not a retired one: figure 7).
  const kept = previousFigures().filter((f) => !ids.has(f.id) && FIGURES.some((spec) => spec.id === f.id));
  results.figures = [...kept, ...results.figures].sort((a, b) => a.id - b.id);
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);

  console.log(`\n== summary (${((Date.now() - started) / 1000).toFixed(0)} s; written to ${path.relative(process.cwd(), RESULTS)})`);
  for (const f of results.figures) console.log(formatFigure(f));
  return broken > 0 ? 1 : 0;
}

process.exitCode = await main();
