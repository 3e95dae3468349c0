import { countTextTokens } from '../scripted-http/cl100k-count.js';

export { countTextTokens };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a message's content: a string, or a list of input_text / output_text parts. */
function contentPieces(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? [part.text] : []));
}

/** The pieces of one Responses API input item that reach the model. */
export function itemPieces(item: unknown): string[] {
  if (!isRecord(item)) return [];
  switch (item.type) {
    case 'message':
      return contentPieces(item.content);
    case 'function_call':
      return [String(item.name), String(item.arguments)];
    case 'custom_tool_call':
      return [String(item.name), String(item.input)];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return typeof item.output === 'string' ? [item.output] : contentPieces(item.output);
    case 'reasoning':
      return Array.isArray(item.summary) ? contentPieces(item.summary) : [];
    default:
      return [JSON.stringify(item)];
  }
}

/**
 * The "true" size of a Responses request: cl100k over its instructions, input items and tool
 * definitions. Not OpenAI's tokenizer (o200k) nor its accounting, but a fixed yardstick.
 */
export function countResponsesRequestTokens(body: unknown): number {
  if (!isRecord(body)) return 0;
  const pieces: string[] = typeof body.instructions === 'string' ? [body.instructions] : [];
  if (Array.isArray(body.input)) for (const item of body.input) pieces.push(...itemPieces(item));
  else if (typeof body.input === 'string') pieces.push(body.input);
  if (Array.isArray(body.tools)) for (const tool of body.tools) pieces.push(JSON.stringify(tool));
  return pieces.reduce((sum, piece) => sum + countTextTokens(piece), 0);
}
