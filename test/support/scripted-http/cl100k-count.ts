/**
 * The scripted API servers' token count (cl100k, js-tiktoken's own encoder): what a request
 * "costs" when a test does not script its usage. Shared by the Messages server (scripted-api/)
 * and the Responses server (scripted-responses/).
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

// Building the encoder costs ~0.6 s, so it is made once, on first use.
let encoder: Tiktoken | undefined;
// Both CLIs re-send the same system prompt and tool schemas (35-75 KB) on every call; counting each
// distinct piece once keeps a long session cheap.
const pieceCounts = new Map<string, number>();
const MAX_MEMO = 5000;

export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  const known = pieceCounts.get(text);
  if (known !== undefined) return known;
  encoder ??= new Tiktoken(cl100kBase);
  // Special-token markers in user data are ordinary text here, never an error.
  const n = encoder.encode(text, [], []).length;
  if (pieceCounts.size >= MAX_MEMO) pieceCounts.clear();
  pieceCounts.set(text, n);
  return n;
}
