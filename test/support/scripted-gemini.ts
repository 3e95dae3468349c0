/**
 * A scripted stand-in for the Gemini API, for driving the real `gemini` CLI in tests. What gemini
 * 0.61.0 sends and accepts is pinned by test/harness/gemini-*.test.ts.
 */
export type { GeminiUsageSpec, GeminiCallSpec, GeminiTurn, RecordedGeminiRequest, GeminiScriptFunction, ScriptedGeminiOptions, ScriptedGemini } from './scripted-gemini/types.js';
export { startScriptedGemini } from './scripted-gemini/server.js';
export { countGeminiRequestTokens } from './scripted-gemini/tokens.js';
export { contents, userTexts, functionResponses, toolNames, shellCall, writeFileCall } from './scripted-gemini/requests.js';
