/**
 * A model's list price as an agent's driver states it (OpenAI's for codex, Google's for gemini), USD
 * per million tokens: src/cost/prices.ts's ModelPrice, restated, since cost/ depends on agent/ and
 * agent/ cannot import it (a test checks they agree).
 */
export interface ListTokenPrices {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}
export interface ListModelPrice extends ListTokenPrices {
  longPrompt?: ListTokenPrices & { aboveTokens: number };
}
