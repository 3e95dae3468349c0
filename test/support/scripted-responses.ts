/**
 * A scripted stand-in for the OpenAI Responses API, for driving the real `codex` CLI in tests.
 *
 * What codex 0.171.0 sends and accepts (measured against this server; re-check when it moves):
 * - It calls only `POST {base_url}/responses` with `stream: true`, `store: false`, the whole
 *   history in `input` (no previous_response_id), `tools` (exec_command, write_stdin,
 *   request_user_input, apply_patch (custom, freeform), view_image, get_goal, create_goal,
 *   update_goal, tool_search, web_search) and `include: ["reasoning.encrypted_content"]`.
 *   Headers: `authorization: Bearer <env_key's value>`, `x-codex-turn-metadata` (JSON: thread_id,
 *   turn_id, `request_kind` "turn" or "compaction", sandbox, model), `session-id`, `thread-id`.
 * - Accepted SSE: response.created, response.output_item.added / .done (message with output_text,
 *   function_call, custom_tool_call, reasoning with encrypted_content), response.output_text.delta,
 *   response.completed {response: {id, usage: {input_tokens, input_tokens_details.cached_tokens,
 *   output_tokens, output_tokens_details.reasoning_tokens, total_tokens}}}, response.failed
 *   {response.error: {code, message}}. codex starts a tool at its `output_item.done`, before the
 *   response completes; its auto-compaction reads `total_tokens`.
 * - Every request consumes a script entry, its compaction summary request included (request_kind
 *   "compaction", no tools, last user message "You are performing a CONTEXT CHECKPOINT COMPACTION").
 *
 * The harness tests in test/harness/codex-*.test.ts pin the rest; recordings are in
 * test/fixtures/codex-streams/<codex version>/.
 */
export type {
  ResponsesUsageSpec,
  FunctionCallSpec,
  CustomToolCallSpec,
  ToolCallSpec,
  ResponsesTurn,
  RecordedResponsesRequest,
  ResponsesScriptFunction,
  ScriptedResponsesOptions,
  ScriptedResponses,
} from './scripted-responses/types.js';
export { startScriptedResponses } from './scripted-responses/server.js';
export { countResponsesRequestTokens, countTextTokens } from './scripted-responses/tokens.js';
export { ENCRYPTED_PREFIX } from './scripted-responses/replies.js';
export {
  inputItems,
  userTexts,
  promptText,
  toolOutputs,
  toolNames,
  execCommand,
  applyPatch,
  contextOverflowError,
  rateLimitError,
  quotaError,
} from './scripted-responses/requests.js';
