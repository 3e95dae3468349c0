/** What the scripted Gemini server sends: SSE chunks of GenerateContentResponse, Google's error body. */
import { countTextTokens } from './tokens.js';
import type { GeminiCallsTurn, GeminiTextTurn, GeminiUsageSpec } from './types.js';

export type Part = Record<string, unknown>;

export function replyParts(turn: GeminiTextTurn | GeminiCallsTurn): Part[] {
  if (turn.kind === 'text') return [{ text: turn.text }];
  const parts: Part[] = turn.text === undefined ? [] : [{ text: turn.text }];
  for (const call of turn.calls) parts.push({ functionCall: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, args: call.args } });
  return parts;
}

/** usageMetadata: what the turn scripts, the rest counted (prompt from the request, output from the reply). */
export function usageMetadata(trueTokens: number, parts: Part[], spec: GeminiUsageSpec = {}): Record<string, number> {
  const prompt = spec.promptTokenCount ?? trueTokens;
  const candidates = spec.candidatesTokenCount ?? Math.max(1, parts.reduce((sum, part) => sum + countTextTokens(JSON.stringify(part)), 0));
  const thoughts = spec.thoughtsTokenCount ?? 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    ...(spec.cachedContentTokenCount === undefined ? {} : { cachedContentTokenCount: spec.cachedContentTokenCount }),
    ...(thoughts === 0 ? {} : { thoughtsTokenCount: thoughts }),
  };
}

/** One complete reply as a single chunk: the parts, finishReason STOP and the usage. */
export function replyChunk(responseId: string, model: string, parts: Part[], usage: Record<string, number>): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: usage,
    modelVersion: model,
    responseId,
  };
}

export function formatSse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** Google's error body: `{error: {code, message, status, details?}}`. */
export function errorBody(status: number, message: string, rpcStatus?: string, details?: unknown[]): Record<string, unknown> {
  return { error: { code: status, message, status: rpcStatus ?? STATUS_NAMES[status] ?? 'UNKNOWN', ...(details === undefined ? {} : { details }) } };
}
