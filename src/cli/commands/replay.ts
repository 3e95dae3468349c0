/**
 * `debussy replay TRANSCRIPT.jsonl...`: runs Claude Code transcripts (the JSONL Claude Code writes
 * under ~/.claude/projects/<project>/) through debussy's context monitor, and shows per API call
 * of the main chain what the API reported, what debussy projected for it beforehand, and where a
 * run at the given limits would have stopped. `--json`: one object per call and a summary.
 */
import { createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { isChatFileHeader } from '../../agent/gemini/chat-file.js';
import { readLineBatches } from '../../agent/line-reader.js';
import { CONFIG_SCHEMA } from '../../config/index.js';
import { describeLimit } from '../../context/index.js';
import { UsageError } from '../../errors/index.js';
import { ReplayFigureCollector, replayTranscript, type ReplayCall, type ReplayEnd, type ReplayFigures, type ReplayOptions, type TranscriptFormat } from '../../replay/index.js';
import { formatCount } from '../../text/format-count.js';
import { inertJson, inertLine } from '../../text/inert-text.js';

interface ReplayCommandOptions {
  contextThreshold?: string;
  maxContextTokens?: string;
  contextWindow?: string;
  json?: boolean;
}

interface FileResult {
  file: string;
  chain: 'main' | 'sidechain';
  figures: ReplayFigures;
  end: ReplayEnd;
}

export default async function replayCommand(files: string[], options: ReplayCommandOptions): Promise<number> {
  const replayOptions = optionsFrom(options);
  for (const file of files) await checkReadable(file);
  const all = new ReplayFigureCollector();
  const results: FileResult[] = [];
  const write = (text: string) => process.stdout.write(text);
  for (const file of files) {
    const collector = new ReplayFigureCollector();
    const format = await transcriptFormat(file);
    // A subagent's own transcript (<session>/subagents/*.jsonl) has no main chain: its chain is replayed.
    const chain = format !== 'claude' || (await hasMainChain(file)) ? 'main' : 'sidechain';
    if (!options.json) write(`${file}${chain === 'sidechain' ? ' (a subagent\'s conversation)' : format === 'claude' ? '' : ` (${FORMAT_NAMES[format]})`}\n${header()}\n`);
    const calls = replayTranscript(readLineBatches(createReadStream(file)), { ...replayOptions, chain, format });
    let next = await calls.next();
    while (next.done !== true) {
      const call = next.value;
      collector.add(call);
      all.add(call);
      write(options.json ? `${inertJson(JSON.stringify(jsonRow(call, files.length > 1 ? file : undefined)))}\n` : textRow(call, format));
      next = await calls.next();
    }
    const figures = collector.figures();
    results.push({ file, chain, figures, end: next.value });
    if (!options.json) write(textFooter(figures, next.value, replayOptions, chain, format));
  }
  if (options.json) {
    const pooled = all.figures();
    const { stopBefore: _stop, compactedBefore: _compacted, ...pooledFigures } = summaryOf(pooled);
    write(`${JSON.stringify({ summary: { ...pooledFigures, files: results.map((r) => ({ file: r.file, chain: r.chain, ...summaryOf(r.figures), contextWindow: r.end.contextWindow ?? null, limit: r.end.limit ?? null, calibration: r.end.calibration, otherChainEntries: r.end.otherChainEntries, badLines: r.end.badLines })) } })}\n`);
  } else if (files.length > 1) {
    write(`all ${files.length} transcripts: ${errorLine(all.figures())}\n`);
  }
  return 0;
}

function optionsFrom(options: ReplayCommandOptions): ReplayOptions {
  const threshold = numberFlag('--context-threshold', options.contextThreshold, 1, 100) ?? CONFIG_SCHEMA.context_threshold.default;
  const cap = numberFlag('--max-context-tokens', options.maxContextTokens, 0, Number.MAX_SAFE_INTEGER) ?? CONFIG_SCHEMA.max_context_tokens.default;
  const window = numberFlag('--context-window', options.contextWindow, 1000, Number.MAX_SAFE_INTEGER);
  return { thresholdPercent: threshold, maxContextTokens: cap > 0 ? cap : undefined, contextWindow: window };
}

function numberFlag(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any size' : max}, got "${raw}"`, `e.g. ${flag} ${flag === '--context-threshold' ? '80' : '400000'}`);
  }
  return value;
}

const FORMAT_NAMES: Record<Exclude<TranscriptFormat, 'claude'>, string> = { codex: 'a Codex CLI rollout', gemini: 'a Gemini CLI chat file' };

/** A Codex CLI rollout begins with its `session_meta` record, a Gemini CLI chat file with its header; anything else is read as Claude Code's. */
async function transcriptFormat(file: string): Promise<TranscriptFormat> {
  for await (const batch of readLineBatches(createReadStream(file))) {
    for (const line of batch) {
      if (line.trim() === '') continue;
      const first = safeParse(line);
      if (first?.type === 'session_meta') return 'codex';
      return isChatFileHeader(first) ? 'gemini' : 'claude';
    }
  }
  return 'claude';
}

/** Whether any API call of the file is on the main chain (a session's transcript, not a subagent's). */
async function hasMainChain(file: string): Promise<boolean> {
  for await (const batch of readLineBatches(createReadStream(file))) {
    for (const line of batch) {
      if (!line.includes('"assistant"')) continue;
      const entry = safeParse(line);
      if (entry?.type === 'assistant' && entry.isSidechain !== true) return true;
    }
  }
  return false;
}

function safeParse(line: string): { type?: unknown; isSidechain?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

async function checkReadable(file: string): Promise<void> {
  try {
    await access(file);
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch {
    throw new UsageError(`cannot read transcript ${file}`, 'give the path of a .jsonl transcript, e.g. ~/.claude/projects/<project>/<session>.jsonl, or a codex rollout ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl');
  }
}

function jsonRow(call: ReplayCall, file: string | undefined): Record<string, unknown> {
  return {
    ...(file === undefined ? {} : { file }),
    index: call.index,
    model: call.model,
    reported: call.reported,
    projected: call.projected,
    ...(call.stopBefore ? { stopBefore: true } : {}),
    ...(call.compactedBefore ? { compactedBefore: true } : {}),
  };
}

const COLUMNS = { index: 6, model: 28, tokens: 11, error: 9 };

function header(): string {
  return `${'call'.padStart(COLUMNS.index)}  ${'model'.padEnd(COLUMNS.model)}${'reported'.padStart(COLUMNS.tokens)}${'projected'.padStart(COLUMNS.tokens)}${'error'.padStart(COLUMNS.error)}`;
}

/** Who compacted: the CLI that wrote the transcript. */
const COMPACTOR: Record<TranscriptFormat, string> = { claude: 'Claude Code', codex: 'codex', gemini: 'gemini' };

function textRow(call: ReplayCall, format: TranscriptFormat): string {
  const notes: string[] = [];
  if (call.compactedBefore) notes.push(`<- ${COMPACTOR[format]} compacted before this call`);
  if (call.stopBefore) notes.push('<- debussy would have stopped before this request');
  const error = call.projected === null || call.reported === 0 ? '-' : `${(((call.projected - call.reported) / call.reported) * 100).toFixed(2)}%`;
  const projected = call.projected === null ? '-' : formatCount(call.projected);
  // The model's name is the transcript's: shown inert.
  return `${String(call.index).padStart(COLUMNS.index)}  ${inertLine(call.model).padEnd(COLUMNS.model)}${formatCount(call.reported).padStart(COLUMNS.tokens)}${projected.padStart(COLUMNS.tokens)}${error.padStart(COLUMNS.error)}${notes.length > 0 ? `  ${notes.join('; ')}` : ''}\n`;
}

function textFooter(figures: ReplayFigures, end: ReplayEnd, options: ReplayOptions, chain: 'main' | 'sidechain', format: TranscriptFormat): string {
  const apart = end.otherChainEntries > 0 ? ` (${end.otherChainEntries} ${chain === 'main' ? 'subagent' : 'main-chain'} entries left apart)` : '';
  const lines = [`  ${figures.calls} API calls on the ${chain === 'main' ? 'main chain' : "subagent's chain"}${apart}${end.badLines > 0 ? `, ${end.badLines} unreadable lines` : ''}`];
  lines.push(`  limit: ${describeLimit(end.limit, end.contextWindow, options.thresholdPercent)}; ${figures.stopBefore === null ? 'debussy would not have stopped this session' : `debussy would have stopped before call ${figures.stopBefore}`}`);
  if (figures.compactedBefore.length > 0) lines.push(`  ${COMPACTOR[format]} compacted before call ${figures.compactedBefore.join(', ')}`);
  lines.push(`  ${errorLine(figures)}`);
  for (const [model, c] of Object.entries(end.calibration)) lines.push(`  ${model}: ${c.factor.toFixed(3)} x cl100k + ${Math.round(c.overheadPerCall)} tokens per call at the end`);
  return `${lines.join('\n')}\n\n`;
}

function errorLine(figures: ReplayFigures): string {
  const e = figures.error;
  const g = figures.growthError;
  if (e.compared === 0) return 'no projection to compare (fewer than two calls)';
  const pct = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}%`);
  const growth = g.compared === 0 ? 'no growth of 1,000 tokens or more' : `growth error median ${pct(g.medianPercent)}, p95 ${pct(g.p95Percent)} over ${g.compared} growths >= 1,000 tokens`;
  return `projection error (% of the reported context): median ${pct(e.medianPercent)}, p95 ${pct(e.p95Percent)}, worst ${pct(e.worstPercent)} over ${e.compared} calls; ${growth}`;
}

function summaryOf(figures: ReplayFigures): Record<string, unknown> {
  return {
    calls: figures.calls,
    compared: figures.error.compared,
    medianErrorPercent: figures.error.medianPercent,
    p95ErrorPercent: figures.error.p95Percent,
    worstErrorPercent: figures.error.worstPercent,
    underProjected: figures.underProjected,
    growth: { compared: figures.growthError.compared, medianErrorPercent: figures.growthError.medianPercent, p95ErrorPercent: figures.growthError.p95Percent, worstErrorPercent: figures.growthError.worstPercent },
    stopBefore: figures.stopBefore,
    compactedBefore: figures.compactedBefore,
  };
}
