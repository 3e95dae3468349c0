import { countTextTokens as countText } from '../scripted-http/cl100k-count.js';
import type { RecordedRequest } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text pieces a content value (string or list of blocks) puts in front of the model. */
function contentPieces(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown): string[] => {
    if (!isRecord(block)) return [];
    switch (block.type) {
      case 'text':
        return typeof block.text === 'string' ? [block.text] : [];
      case 'thinking':
        return typeof block.thinking === 'string' ? [block.thinking] : [];
      case 'redacted_thinking':
      case 'image':
      case 'document':
        return [];
      case 'tool_use':
        return [String(block.name), JSON.stringify(block.input ?? {})];
      case 'tool_result':
        return contentPieces(block.content);
      default:
        return [JSON.stringify(block)];
    }
  });
}

function toolPieces(tool: unknown): string[] {
  if (!isRecord(tool)) return [];
  if (typeof tool.name === 'string' && tool.input_schema !== undefined) {
    return [tool.name, typeof tool.description === 'string' ? tool.description : '', JSON.stringify(tool.input_schema)];
  }
  return [JSON.stringify(tool)];
}

/**
 * The "true" token count of a Messages API request: cl100k_base over the text of system, messages
 * and tools. Not Anthropic's tokenizer, but a fixed, reproducible yardstick for the context monitor.
 */
export function countRequestTokens(body: unknown): number {
  if (!isRecord(body)) return 0;
  const pieces: string[] = [];
  pieces.push(...contentPieces(body.system));
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (isRecord(message)) pieces.push(...contentPieces(message.content));
    }
  }
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) pieces.push(...toolPieces(tool));
  }
  return pieces.reduce((sum, piece) => sum + countText(piece), 0);
}

/** Tokens of a plain string with the same encoder (e.g. to size a scripted reply). */
export { countTextTokens } from '../scripted-http/cl100k-count.js';

const SYSTEM_REMINDER = /^\s*<system-reminder>/;

/**
 * Text of the first `role: "user"` message: string content, or its text blocks joined with "\n".
 * Blocks the CLI injects itself (`<system-reminder>` context such as the current date) are left
 * out, so the result starts with the prompt the CLI was given. See firstUserTextRaw for all of it.
 */
export function firstUserText(req: RecordedRequest): string {
  return userTextBlocks(req)
    .filter((text) => !SYSTEM_REMINDER.test(text))
    .join('\n');
}

/** Like firstUserText, with the CLI's injected `<system-reminder>` blocks kept. */
export function firstUserTextRaw(req: RecordedRequest): string {
  return userTextBlocks(req).join('\n');
}

function userTextBlocks(req: RecordedRequest): string[] {
  const body = req.body;
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  const first: unknown = body.messages.find((m: unknown) => isRecord(m) && m.role === 'user');
  if (!isRecord(first)) return [];
  if (typeof first.content === 'string') return [first.content];
  if (!Array.isArray(first.content)) return [];
  return first.content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
}
