import { countTextTokens } from './tokens.js';
import type { ToolUseSpec, UsageSpec } from './types.js';

/** A complete assistant message, rendered either as SSE events or as one JSON body. */
export interface ReplyMessage {
  id: string;
  model: string;
  content: ReplyBlock[];
  stopReason: 'end_turn' | 'tool_use';
  usage: Required<UsageSpec>;
}

export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export function textBlocks(text: string | undefined): ReplyBlock[] {
  return text === undefined || text === '' ? [] : [{ type: 'text', text }];
}

export function toolUseBlocks(uses: ToolUseSpec[], idPrefix: string): ReplyBlock[] {
  return uses.map((use, k) => ({
    type: 'tool_use',
    id: use.id ?? `toolu_${idPrefix}_${k}`,
    name: use.name,
    input: use.input,
  }));
}

/** Output tokens the reply would have cost, unless the script says otherwise. */
export function outputTokensOf(content: ReplyBlock[]): number {
  const counted = content.reduce(
    (sum, block) =>
      sum + (block.type === 'text' ? countTextTokens(block.text) : countTextTokens(block.name + JSON.stringify(block.input))),
    0,
  );
  return Math.max(1, counted);
}

function startUsage(usage: Required<UsageSpec>): Record<string, number> {
  return {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
    output_tokens: 1,
  };
}

/**
 * `text` cut into pieces: whole without `deltaChars`; else sizes cycling from the pair's first
 * to its last (deterministic, so a failure can be replayed).
 */
export function deltaPieces(text: string, deltaChars?: number | readonly [number, number]): string[] {
  if (deltaChars === undefined || text === '') return [text];
  const [min, max] = typeof deltaChars === 'number' ? [deltaChars, deltaChars] : deltaChars;
  const pieces: string[] = [];
  for (let at = 0, k = 0; at < text.length; k += 1) {
    const size = Math.max(1, min + (k % (max - min + 1)));
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** The SSE event sequence of the streaming Messages API for this message. */
export function sseEvents(message: ReplyMessage, deltaChars?: number | readonly [number, number]): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: message.id,
          type: 'message',
          role: 'assistant',
          model: message.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: startUsage(message.usage),
        },
      },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(
        { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } },
        ...deltaPieces(block.text, deltaChars).map((text) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text } } })),
      );
    } else {
      events.push(
        {
          event: 'content_block_start',
          data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } },
        },
        ...deltaPieces(JSON.stringify(block.input), deltaChars).map((partial) => ({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } },
        })),
      );
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: message.stopReason, stop_sequence: null },
        usage: { output_tokens: message.usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The non-streaming body (the CLI falls back to it after a dropped stream). */
export function jsonMessage(message: ReplyMessage): Record<string, unknown> {
  return {
    id: message.id,
    type: 'message',
    role: 'assistant',
    model: message.model,
    content: message.content,
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage: { ...startUsage(message.usage), output_tokens: message.usage.output_tokens },
  };
}

export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message } };
}
