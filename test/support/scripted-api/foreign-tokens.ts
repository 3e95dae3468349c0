/**
 * A token count debussy's estimator does not share, for the `usage: 'foreign'` mode: what a
 * request holds, counted with another vocabulary (p50k_base, not the cl100k debussy counts with),
 * scaled per kind of content (tool results count more than prose, as Claude's own tokenizer does
 * against cl100k), plus a hidden overhead per message and, optionally, unseen jumps that stay in
 * the context once they happened (like the reminders Claude Code injects). Against cl100k this
 * comes out 20-60% higher depending on the content, and no fixed factor reproduces it.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import p50kBase from 'js-tiktoken/ranks/p50k_base';

export interface ForeignCountSpec {
  /** Multipliers per kind of content (defaults: system 1.05, text 1.1, tool_use 1.15, tool_result 1.2). */
  scales?: Partial<Record<ContentKind, number>>;
  /** Hidden tokens per message of the request (default 35: ~70 per tool round trip). */
  overheadPerMessage?: number;
  /** Once a request holds this many messages, `jumpTokens` more that no event shows, for good (each entry one jump). */
  jumpAtMessages?: number[];
  /** Default 6,000: over the 5,000 a learner must not take for content. */
  jumpTokens?: number;
}

export type ContentKind = 'system' | 'text' | 'tool_use' | 'tool_result';

const DEFAULT_SCALES: Record<ContentKind, number> = { system: 1.05, text: 1.1, tool_use: 1.15, tool_result: 1.2 };
const DEFAULT_OVERHEAD_PER_MESSAGE = 35;
const DEFAULT_JUMP_TOKENS = 6_000;

let encoder: Tiktoken | undefined;
const memo = new Map<string, number>();
const MAX_MEMO = 5000;

function countP50k(text: string): number {
  if (text.length === 0) return 0;
  const known = memo.get(text);
  if (known !== undefined) return known;
  encoder ??= new Tiktoken(p50kBase);
  const n = encoder.encode(text, [], []).length;
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(text, n);
  return n;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pieces(content: unknown, kind: ContentKind, out: Array<[ContentKind, string]>): void {
  if (typeof content === 'string') {
    out.push([kind, content]);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content as unknown[]) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') out.push([kind, block.text]);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') out.push(['text', block.thinking]);
    else if (block.type === 'tool_use') out.push(['tool_use', String(block.name) + JSON.stringify(block.input ?? {})]);
    else if (block.type === 'tool_result') pieces(block.content, 'tool_result', out);
  }
}

function scaled(list: Array<[ContentKind, string]>, spec: ForeignCountSpec): number {
  const scales = { ...DEFAULT_SCALES, ...spec.scales };
  return list.reduce((sum, [kind, text]) => sum + countP50k(text) * scales[kind], 0);
}

/** The foreign count of a Messages API request body. */
export function countRequestTokensForeign(body: unknown, spec: ForeignCountSpec = {}): number {
  if (!isRecord(body)) return 0;
  const list: Array<[ContentKind, string]> = [];
  pieces(body.system, 'system', list);
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) list.push(['system', JSON.stringify(tool)]);
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) if (isRecord(message)) pieces(message.content, 'text', list);
  const overhead = messages.length * (spec.overheadPerMessage ?? DEFAULT_OVERHEAD_PER_MESSAGE);
  const jumps = (spec.jumpAtMessages ?? []).filter((at) => messages.length >= at).length * (spec.jumpTokens ?? DEFAULT_JUMP_TOKENS);
  return Math.round(scaled(list, spec) + overhead + jumps);
}

/** The foreign count of a reply's content: what its output_tokens say, and what it adds to the next request. */
export function countReplyTokensForeign(content: Array<{ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown }>, spec: ForeignCountSpec = {}): number {
  const list: Array<[ContentKind, string]> = content.map((block) => (block.type === 'text' ? ['text', block.text] : ['tool_use', block.name + JSON.stringify(block.input ?? {})]));
  return Math.max(1, Math.round(scaled(list, spec)));
}
