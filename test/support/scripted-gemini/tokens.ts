import { countTextTokens } from '../scripted-http/cl100k-count.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The pieces of one `parts` entry that reach the model: text, a call, a call's response. */
function partPieces(part: unknown): string[] {
  if (!isRecord(part)) return [];
  if (typeof part.text === 'string') return [part.text];
  if (isRecord(part.functionCall)) return [String(part.functionCall.name), JSON.stringify(part.functionCall.args ?? {})];
  if (isRecord(part.functionResponse)) return [JSON.stringify(part.functionResponse.response ?? {})];
  return [JSON.stringify(part)];
}

function contentPieces(content: unknown): string[] {
  return isRecord(content) && Array.isArray(content.parts) ? content.parts.flatMap(partPieces) : [];
}

/**
 * The "true" size of a generateContent request: cl100k over its system instruction, contents and
 * tool declarations. Not Gemini's tokenizer, but a fixed yardstick.
 */
export function countGeminiRequestTokens(body: unknown): number {
  if (!isRecord(body)) return 0;
  const pieces = contentPieces(body.systemInstruction);
  if (Array.isArray(body.contents)) for (const content of body.contents) pieces.push(...contentPieces(content));
  if (Array.isArray(body.tools)) for (const tool of body.tools) pieces.push(JSON.stringify(tool));
  return pieces.reduce((sum, piece) => sum + countTextTokens(piece), 0);
}

export { countTextTokens };
