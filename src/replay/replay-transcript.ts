/**
 * Replays one transcript (Claude Code's session .jsonl, a Codex CLI rollout file, or a Gemini CLI
 * chat file) through the
 * context monitor the live run uses: each API call
 * of the main chain is a row with what the API reported, what debussy projected for that request
 * before seeing the report, and whether a run at the given limits would have stopped before it.
 * The rows stream out as they are made; the figures over them are in replay-figures.ts.
 */
import { ContextMonitor, type ContextLimit, type TokenCalibration } from '../context/index.js';
import { endTranscript, newTranscriptState, readTranscriptLine, type TranscriptItem, type TranscriptState } from './transcript-events.js';
import { newRolloutParseState, parseRolloutLine } from '../agent/codex/rollout-events.js';
import { newTotals } from '../agent/call-usage.js';
import { chatReplayEvents, newChatReplayState } from '../agent/gemini/chat-file.js';
import { geminiWindowForModel } from '../agent/gemini/gemini-launch.js';

export type TranscriptFormat = 'claude' | 'codex' | 'gemini';

export interface ReplayOptions {
  thresholdPercent: number;
  maxContextTokens: number | undefined;
  contextWindow: number | undefined;
  /** 'sidechain' replays a subagent's own transcript; default: the main chain. */
  chain?: 'main' | 'sidechain';
  /** Whose transcript: Claude Code's (default), a Codex CLI rollout file (~/.codex/sessions/.../rollout-*.jsonl) or a Gemini CLI chat file (~/.gemini/tmp/<project>/chats/session-*.jsonl). */
  format?: TranscriptFormat;
  /** The calibration the monitor learns into; a fresh one by default (bench/context-replay.ts compares others). */
  calibration?: TokenCalibration;
}

export interface ReplayCall {
  /** 1-based position among the main chain's API calls. */
  index: number;
  model: string;
  reported: number;
  /** The projection of this request made before its report; null for the first call and after a compaction. */
  projected: number | null;
  /** The run would have stopped before sending this request (the first call after the limit was crossed). */
  stopBefore: boolean;
  /** Claude Code compacted the context before this call. */
  compactedBefore: boolean;
}

export interface ReplayEnd {
  badLines: number;
  /** Entries of the other chain left apart (subagent entries when the main chain is replayed). */
  otherChainEntries: number;
  contextWindow: number | undefined;
  limit: ContextLimit | undefined;
  /** What the calibration ended with, per model seen. */
  calibration: Record<string, { factor: number; overheadPerCall: number }>;
}

export async function* replayTranscript(lines: AsyncIterable<string[]>, options: ReplayOptions): AsyncGenerator<ReplayCall, ReplayEnd> {
  let crossed = false;
  let stopMarked = false;
  const monitor = new ContextMonitor({
    thresholdPercent: options.thresholdPercent,
    toolCallThreshold: 0,
    ...(options.maxContextTokens === undefined ? {} : { maxContextTokens: options.maxContextTokens }),
    // gemini's chat file names no window: every model gemini runs has the one of its table.
    ...(options.contextWindow === undefined ? (options.format === 'gemini' ? { contextWindowOverride: geminiWindowForModel(undefined) } : {}) : { contextWindowOverride: options.contextWindow }),
    ...(options.calibration === undefined ? {} : { calibration: options.calibration }),
    onLimit: () => {
      crossed = true;
    },
  });
  const state: TranscriptState = newTranscriptState(options.chain);
  const models = new Set<string>();
  let index = 0;
  let compactedSince = false;
  let first = true;

  function* feed(items: TranscriptItem[]): Generator<ReplayCall> {
    for (const item of items) {
      if (item.kind === 'user_text') {
        monitor.enterText(item.text);
        continue;
      }
      const event = item.event;
      if (event.type === 'compaction') compactedSince = true;
      if (event.type === 'usage') {
        index += 1;
        models.add(event.model);
        const projected = first || compactedSince ? null : monitor.snapshot().usedTokens;
        const stopBefore = crossed && !stopMarked;
        if (stopBefore) stopMarked = true;
        const call: ReplayCall = { index, model: event.model, reported: event.contextTokens, projected, stopBefore, compactedBefore: compactedSince };
        first = false;
        compactedSince = false;
        monitor.observe(event);
        yield call;
        continue;
      }
      monitor.observe(event);
    }
  }

  // A codex rollout gives the live run's events line by line (agent/codex/rollout-events.ts): no chains, nothing held back.
  const rollout = options.format === 'codex' ? newRolloutParseState() : undefined;
  // A gemini chat file likewise (agent/gemini/chat-file.ts).
  const chat = options.format === 'gemini' ? newChatReplayState(newTotals()) : undefined;
  const read = (line: string): TranscriptItem[] => {
    if (rollout === undefined && chat === undefined) return readTranscriptLine(line, state);
    if (line.trim() === '') return [];
    const events = rollout !== undefined ? parseRolloutLine(line, rollout) : chatReplayEvents(line, chat!);
    return events.filter((event) => event.type !== 'unparsed_line').map((event) => ({ kind: 'event', event }));
  };
  for await (const batch of lines) {
    for (const line of batch) yield* feed(read(line));
  }
  if (rollout !== undefined) state.badLines = rollout.unparsedLines;
  else if (chat !== undefined) state.badLines = chat.badLines;
  else yield* feed(endTranscript(state));
  const snapshot = monitor.snapshot();
  const calibration = Object.fromEntries(
    [...models].map((model) => [model, { factor: monitor.tokenCalibration.factorFor(model), overheadPerCall: monitor.tokenCalibration.overheadFor(model) }]),
  );
  return { badLines: state.badLines, otherChainEntries: state.otherChainEntries, contextWindow: snapshot.contextWindow, limit: snapshot.limit, calibration };
}
