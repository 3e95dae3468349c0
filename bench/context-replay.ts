/**
 * The context projection against real Claude Code transcripts, by model:
 *
 *   npx tsx bench/context-replay.ts DIR_OR_TRANSCRIPT... [--json]
 *
 * Every `*.jsonl` under the given folders is replayed as `debussy replay` does (the main chain;
 * files without one are left out) three times: with debussy's calibration, with the model's prior
 * alone (never learning), and with raw cl100k (factor 1, no per-call overhead). Each projection is
 * compared with the context the API then reported; the table gives, per model, the transcripts,
 * the calls compared, the median and p95 error (% of the reported context) and how many calls were
 * under-projected (a run learns of a crossing late on those), and the calls' growth as % of the
 * context (the distribution figure 3's session is sized by). Nothing here knows where transcripts
 * live: give it the folders you collected (docs/restart-flow.md says which were measured).
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readLineBatches } from '../src/agent/line-reader.js';
import { TokenCalibration } from '../src/context/index.js';
import { errorFigures, replayTranscript, type ErrorFigures } from '../src/replay/index.js';
import { FixedCalibration } from './lib/fixed-calibration.js';
import { shareQuantiles } from './lib/real-growth.js';

const METHODS = {
  debussy: () => new TokenCalibration(),
  prior: () => new FixedCalibration(),
  rawCl100k: () => new FixedCalibration({ factor: 1, overheadPerCall: 0 }),
} as const;
type Method = keyof typeof METHODS;

interface Row {
  model: string;
  errorPercent: number;
  under: boolean;
  /** The call's growth since the one before, as % of its reported context (figure 3 sizes its calls by these). */
  growthSharePercent: number;
}

const OTHER = 'not Claude';

/**
 * `claude-opus-4-6` -> `opus 4.6`, `claude-sonnet-4-20250514` -> `sonnet 4`. Models that are not
 * Claude (Claude Code pointed at another API) are grouped apart and left out of 'all'.
 */
function modelFamily(model: string): string {
  const match = /^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/.exec(model);
  if (match === null) return OTHER;
  return `${match[1]} ${match[2]}${match[3] === undefined ? '' : `.${match[3]}`}`;
}

function transcriptsUnder(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.jsonl'))
    .map((file) => path.join(target, file))
    .sort();
}

async function replay(file: string, method: Method): Promise<Row[]> {
  const rows: Row[] = [];
  let previous = 0;
  const calls = replayTranscript(readLineBatches(createReadStream(file)), { thresholdPercent: 100, maxContextTokens: undefined, contextWindow: undefined, calibration: METHODS[method]() });
  for await (const call of calls) {
    const before = previous;
    previous = call.reported;
    if (call.projected === null || call.reported <= 0) continue;
    rows.push({ model: call.model, errorPercent: (100 * Math.abs(call.projected - call.reported)) / call.reported, under: call.projected < call.reported, growthSharePercent: (100 * (call.reported - before)) / call.reported });
  }
  return rows;
}

interface Group {
  transcripts: Set<string>;
  rows: Record<Method, Row[]>;
}

function groupOf(groups: Map<string, Group>, key: string): Group {
  let group = groups.get(key);
  if (group === undefined) {
    group = { transcripts: new Set(), rows: { debussy: [], prior: [], rawCl100k: [] } };
    groups.set(key, group);
  }
  return group;
}

function summary(rows: Row[]): ErrorFigures & { underProjected: number } {
  return { ...errorFigures(rows.map((r) => r.errorPercent)), underProjected: rows.filter((r) => r.under).length };
}

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const targets = argv.filter((a) => a !== '--json');
  if (targets.length === 0) throw new Error('give the folders (or .jsonl files) of Claude Code transcripts to replay, e.g. npx tsx bench/context-replay.ts ~/.claude/projects');
  const files = targets.flatMap(transcriptsUnder);
  const groups = new Map<string, Group>();
  for (const file of files) {
    for (const method of Object.keys(METHODS) as Method[]) {
      for (const row of await replay(file, method)) {
        const family = modelFamily(row.model);
        for (const key of family === OTHER ? [family] : [family, 'all']) {
          const group = groupOf(groups, key);
          group.transcripts.add(file);
          group.rows[method].push(row);
        }
      }
    }
  }
  const last = (key: string) => (key === 'all' ? 2 : key === OTHER ? 1 : 0);
  const table = [...groups].sort(([a], [b]) => last(a) - last(b) || a.localeCompare(b)).map(([model, group]) => ({
    model,
    transcripts: group.transcripts.size,
    calls: group.rows.debussy.length,
    debussy: summary(group.rows.debussy),
    prior: summary(group.rows.prior),
    rawCl100k: summary(group.rows.rawCl100k),
    growthSharePercent: shareQuantiles(group.rows.debussy.map((r) => r.growthSharePercent)),
  }));
  if (json) {
    process.stdout.write(`${JSON.stringify({ files: files.length, models: table })}\n`);
    return;
  }
  const cell = (f: ErrorFigures & { underProjected: number }) => `${(f.medianPercent ?? Number.NaN).toFixed(3)}% ${(f.p95Percent ?? Number.NaN).toFixed(2)}% ${String(f.underProjected).padStart(5)}`.padEnd(24);
  process.stdout.write(`${files.length} transcripts; error as % of the next request's reported context: median, p95, calls under-projected\n`);
  process.stdout.write(`${'model'.padEnd(14)}${'files'.padStart(6)}${'calls'.padStart(7)}  ${'debussy'.padEnd(24)}${'prior alone'.padEnd(24)}${'raw cl100k'.padEnd(24)}\n`);
  for (const row of table) process.stdout.write(`${row.model.padEnd(14)}${String(row.transcripts).padStart(6)}${String(row.calls).padStart(7)}  ${cell(row.debussy)}${cell(row.prior)}${cell(row.rawCl100k)}\n`);
  const all = table.find((row) => row.model === 'all');
  if (all !== undefined) process.stdout.write(`growth per call, % of the context (all): ${Object.entries(all.growthSharePercent).map(([q, v]) => `${q} ${v}`).join(', ')}\n`);
}

await main(process.argv.slice(2));
