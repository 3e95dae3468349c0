/**
 * The SSE events of a Responses API reply, as codex 0.171.0 reads them: `response.created`, per
 * output item `response.output_item.added`, text deltas, `response.output_item.done`, then
 * `response.completed` whose `response.usage` is the call's usage (codex requires `total_tokens`).
 */
import { countTextTokens, itemPieces } from './tokens.js';
import type { CallsTurn, ResponsesUsageSpec, TextTurn } from './types.js';

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export type OutputItem = Record<string, unknown> & { type: string };

export interface ReplyUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** What stands in for a reasoning item's encrypted content: codex sends it back verbatim. */
export const ENCRYPTED_PREFIX = 'scripted-encrypted:';

/** The output items of a turn, ids derived from the request index (`idPrefix`). */
export function outputItems(turn: TextTurn | CallsTurn, idPrefix: string): OutputItem[] {
  const items: OutputItem[] = [];
  if (turn.reasoning !== undefined) {
    items.push({
      type: 'reasoning',
      id: `rs_${idPrefix}`,
      summary: [{ type: 'summary_text', text: turn.reasoning }],
      encrypted_content: ENCRYPTED_PREFIX + Buffer.from(turn.reasoning).toString('base64'),
    });
  }
  const text = turn.text;
  if (text !== undefined && text !== '') {
    items.push({ type: 'message', id: `msg_${idPrefix}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
  }
  if (turn.kind === 'calls') {
    turn.calls.forEach((call, k) => {
      const callId = call.callId ?? `call_${idPrefix}_${k}`;
      items.push(
        call.type === 'custom'
          ? { type: 'custom_tool_call', id: `ctc_${idPrefix}_${k}`, status: 'completed', call_id: callId, name: call.name, input: call.input }
          : { type: 'function_call', id: `fc_${idPrefix}_${k}`, status: 'completed', call_id: callId, name: call.name, arguments: JSON.stringify(call.arguments) },
      );
    });
  }
  return items;
}

/** Output tokens the reply would have cost (cl100k of its items), at least 1. */
export function outputTokensOf(items: readonly OutputItem[]): number {
  return Math.max(1, items.reduce((sum, item) => sum + itemPieces(item).reduce((s, piece) => s + countTextTokens(piece), 0), 0));
}

export function replyUsage(mode: 'computed' | 'scripted', requestTokens: number, items: readonly OutputItem[], spec: ResponsesUsageSpec | undefined): ReplyUsage {
  const reasoning = items.find((item) => item.type === 'reasoning');
  const reasoningTokens = spec?.reasoning_tokens ?? (reasoning === undefined || mode === 'scripted' ? 0 : outputTokensOf([reasoning]));
  const input = spec?.input_tokens ?? (mode === 'scripted' ? 1 : requestTokens);
  const output = spec?.output_tokens ?? (mode === 'scripted' ? 1 : outputTokensOf(items));
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: spec?.cached_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: input + output,
  };
}

function started(item: OutputItem): OutputItem {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] };
  if (item.type === 'function_call') return { ...item, status: 'in_progress', arguments: '' };
  if (item.type === 'custom_tool_call') return { ...item, status: 'in_progress', input: '' };
  return item;
}

/** The events before `response.completed` (codex acts on each `output_item.done` as it comes). */
export function itemEvents(responseId: string, model: string, items: readonly OutputItem[]): SseEvent[] {
  const events: SseEvent[] = [{ event: 'response.created', data: { type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', model, output: [] } } }];
  items.forEach((item, index) => {
    events.push({ event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: index, item: started(item) } });
    if (item.type === 'message') {
      const text = itemPieces(item).join('');
      events.push({ event: 'response.output_text.delta', data: { type: 'response.output_text.delta', item_id: item.id, output_index: index, content_index: 0, delta: text } });
    }
    events.push({ event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: index, item } });
  });
  return events;
}

export function completedEvent(responseId: string, model: string, items: readonly OutputItem[], usage: ReplyUsage): SseEvent {
  return { event: 'response.completed', data: { type: 'response.completed', response: { id: responseId, object: 'response', status: 'completed', model, output: items, usage } } };
}

export function failedEvents(responseId: string, model: string, code: string, message: string): SseEvent[] {
  return [
    { event: 'response.created', data: { type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', model, output: [] } } },
    { event: 'response.failed', data: { type: 'response.failed', response: { id: responseId, object: 'response', status: 'failed', model, output: [], error: { code, message } } } },
  ];
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** OpenAI's error body. */
export function errorBody(message: string, type: string, code: string | null, param: string | null): Record<string, unknown> {
  return { error: { message, type, param, code } };
}
