/**
 * Reads the transcript Claude Code writes for a session (one JSON object a line, under
 * ~/.claude/projects/<project>/<session>.jsonl) into the events the live run gets from claude's
 * stream, so `debussy replay` feeds the same context monitor. Pure: one line in, events out, with
 * the little state the format spreads over lines.
 *
 * The format, as Claude Code 2.x writes it: `assistant` entries carry one content block each;
 * the blocks of one API response share `message.id` and repeat its usage, the last one with the
 * final `output_tokens` (so a response's output is known when its next entry arrives). Some
 * versions (in public transcripts 1.0.x, 2.0.0-2.0.29, 2.1.10-2.1.29) repeat the usage the response
 * started with instead, whose `output_tokens` is the 1-30 tokens counted at its start: a count that
 * would make each token cover more than 8 bytes of the response's text, thinking and tool input is
 * that one, and is left out, so the monitor counts the response as it does while one streams
 * (thinking is passed on as the model's text for that count). `user`
 * entries carry tool results or text (prompts, injected reminders). `isSidechain: true` entries
 * belong to a subagent's conversation, not to the main context. `system` `compact_boundary`
 * marks a compaction (with `compactMetadata.preTokens`). Anything else (progress, snapshots,
 * queue operations) is no part of the model's context.
 */
import type { AgentEvent } from '../agent/index.js';
import { arrayField, contentText, isRecord, numberField, recordField, stringField, type JsonRecord } from '../agent/json-fields.js';

/** An event for the monitor, or text that entered the context outside the stream's event kinds. */
export type TranscriptItem = { kind: 'event'; event: AgentEvent } | { kind: 'user_text'; text: string };

export interface TranscriptState {
  /** Which conversation is read: the main chain, or a subagent's (a file under <session>/subagents/). */
  chain: 'main' | 'sidechain';
  /** The response whose blocks are arriving: its id, the highest output_tokens seen, the UTF-8 bytes of its content. */
  openMessage: { id: string; outputTokens: number; contentBytes: number } | undefined;
  seenMessageIds: Set<string>;
  seenToolUseIds: Set<string>;
  /** Lines that were not JSON, and entries of the other chain left out. */
  badLines: number;
  otherChainEntries: number;
}

const SYNTHETIC_MODEL = '<synthetic>';
/** An output_tokens below a response's content bytes / this is the count it started with, not its final one. */
export const MAX_BYTES_PER_OUTPUT_TOKEN = 8;

export function newTranscriptState(chain: TranscriptState['chain'] = 'main'): TranscriptState {
  return { chain, openMessage: undefined, seenMessageIds: new Set(), seenToolUseIds: new Set(), badLines: 0, otherChainEntries: 0 };
}

export function readTranscriptLine(line: string, state: TranscriptState): TranscriptItem[] {
  if (line.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    state.badLines += 1;
    return [];
  }
  if (!isRecord(value)) return [];
  if ((value.isSidechain === true) !== (state.chain === 'sidechain')) {
    state.otherChainEntries += 1;
    return [];
  }
  const message = recordField(value, 'message');
  if (value.type === 'assistant' && message !== undefined) return readAssistant(value, message, state);
  const items = closeMessage(state);
  if (value.type === 'user' && message !== undefined) items.push(...readUser(message));
  if (value.type === 'system' && value.subtype === 'compact_boundary') {
    const meta = recordField(value, 'compactMetadata');
    const preTokens = meta === undefined ? undefined : numberField(meta, 'preTokens');
    items.push(event({ type: 'compaction', stage: 'boundary', ...(preTokens === undefined ? {} : { preTokens }) }));
  }
  return items;
}

/** The end of the transcript: the last response's output. */
export function endTranscript(state: TranscriptState): TranscriptItem[] {
  return closeMessage(state);
}

function event(agentEvent: AgentEvent): TranscriptItem {
  return { kind: 'event', event: agentEvent };
}

function closeMessage(state: TranscriptState): TranscriptItem[] {
  const open = state.openMessage;
  state.openMessage = undefined;
  if (open === undefined || open.outputTokens <= 0 || open.outputTokens * MAX_BYTES_PER_OUTPUT_TOKEN < open.contentBytes) return [];
  return [event({ type: 'output_usage', outputTokens: open.outputTokens })];
}

function readAssistant(entry: JsonRecord, message: JsonRecord, state: TranscriptState): TranscriptItem[] {
  const id = stringField(message, 'id');
  const model = stringField(message, 'model') ?? '';
  const usage = recordField(message, 'usage');
  if (id === undefined || model === SYNTHETIC_MODEL || entry.isApiErrorMessage === true) return closeMessage(state);
  const items: TranscriptItem[] = [];
  if (state.openMessage?.id !== id) {
    items.push(...closeMessage(state));
    if (!state.seenMessageIds.has(id) && usage !== undefined) {
      state.seenMessageIds.add(id);
      const inputTokens = numberField(usage, 'input_tokens') ?? 0;
      const cacheReadTokens = numberField(usage, 'cache_read_input_tokens') ?? 0;
      const cacheCreationTokens = numberField(usage, 'cache_creation_input_tokens') ?? 0;
      items.push(event({ type: 'usage', messageId: id, model, inputTokens, cacheReadTokens, cacheCreationTokens, contextTokens: inputTokens + cacheReadTokens + cacheCreationTokens }));
    }
    state.openMessage = { id, outputTokens: 0, contentBytes: 0 };
  }
  const open = state.openMessage;
  if (open !== undefined && usage !== undefined) open.outputTokens = Math.max(open.outputTokens, numberField(usage, 'output_tokens') ?? 0);
  const addContent = (text: string) => {
    if (open !== undefined) open.contentBytes += Buffer.byteLength(text, 'utf8');
  };
  for (const block of arrayField(message, 'content') ?? []) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' || block.type === 'thinking') {
      const text = stringField(block, block.type) ?? '';
      addContent(text);
      if (text !== '') items.push(event({ type: 'assistant_text', messageId: id, text }));
    } else if (block.type === 'tool_use') {
      const toolUseId = stringField(block, 'id');
      if (toolUseId === undefined || state.seenToolUseIds.has(toolUseId)) continue;
      state.seenToolUseIds.add(toolUseId);
      const name = stringField(block, 'name') ?? 'unknown';
      addContent(name + JSON.stringify(block.input ?? {}));
      items.push(event({ type: 'tool_start', messageId: id, toolUseId, name, input: block.input, summary: name }));
    }
  }
  return items;
}

function readUser(message: JsonRecord): TranscriptItem[] {
  const content = message.content;
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'user_text', text: content }];
  const items: TranscriptItem[] = [];
  for (const block of arrayField(message, 'content') ?? []) {
    if (!isRecord(block)) continue;
    if (block.type === 'text') {
      const text = stringField(block, 'text') ?? '';
      if (text !== '') items.push({ kind: 'user_text', text });
    } else if (block.type === 'tool_result') {
      const toolUseId = stringField(block, 'tool_use_id');
      if (toolUseId === undefined) continue;
      items.push(event({ type: 'tool_result', toolUseId, isError: block.is_error === true, text: contentText(block.content) }));
    }
  }
  return items;
}
