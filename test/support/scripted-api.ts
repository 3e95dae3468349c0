/**
 * A scripted stand-in for the Anthropic Messages API, for driving the real `claude` CLI in tests.
 *
 * What claude 2.1.197 sends and accepts (measured against this server; re-check when the CLI moves):
 * - Order: `HEAD /` (answered 200), then `POST /v1/messages?beta=true` per model turn. No side
 *   requests were seen in -p mode with telemetry and non-essential traffic off: no title, quota or
 *   haiku calls. `POST /v1/messages/count_tokens` only comes from tools such as Read on big files.
 * - Main vs side: every agent-loop request carries `tools` (24 built-ins); that is the test used
 *   (isMainLoopRequest). It also holds for the non-streaming retry after a dropped stream (no
 *   `stream` field) and for the auto-compaction summary request (its last user message contains
 *   "CRITICAL: Respond with TEXT ONLY"), so both consume a script entry. Anything without tools is
 *   answered "ok" and not counted. Subagent (Task tool) requests also carry tools, so they would
 *   consume script entries too (not measured).
 * - Body: model, messages, system (text blocks; the first is an `x-anthropic-billing-header`),
 *   tools, metadata, max_tokens 64000, thinking {type:'adaptive'}, context_management,
 *   output_config, stream: true. `messages` holds a `role: "system"` entry (agent list) after the
 *   first user message; the first user message is [<system-reminder> date context, prompt]. The
 *   prompt from stdin is passed verbatim (no newline added). firstUserText skips the reminder.
 * - Headers: x-api-key: test-key, anthropic-version, anthropic-beta, x-claude-code-session-id,
 *   x-stainless-retry-count (stays "0" on the CLI's own retries).
 * - Models: default sends `claude-opus-4-8` with beta `context-1m-2025-08-07` and init reports
 *   `claude-opus-4-8[1m]`; `--model opus` -> claude-opus-4-8, `sonnet` -> claude-sonnet-5,
 *   `haiku` -> claude-haiku-4-5-20251001, `claude-sonnet-4-5` as is; none of these has `[1m]` in
 *   init and result.modelUsage[model].contextWindow is 200000.
 * - SSE accepted: message_start (usage), content_block_start/delta/stop (text_delta,
 *   input_json_delta), message_delta (stop_reason, usage.output_tokens), message_stop. The
 *   message_start usage shows up unchanged as assistant.message.usage in the stream-json.
 * - Errors (JSON {type:'error', error:{type,message}}): 529/500 -> synthetic assistant with
 *   error "server_error"; 429 -> "rate_limit"; 401 -> "authentication_failed"; 400 ->
 *   "invalid_request". `retry-after: 1` -> api_retry retry_delay_ms 1000; retry-after 120 -> no
 *   retry; `x-should-retry: false` stops retries of 500/429 but NOT of 529. 400 "prompt is too
 *   long" -> terminal_reason prompt_too_long, never retried; with two or more exchanges the CLI
 *   compacts instead (summary request, compact_boundary, original request re-sent).
 * - drop after some events -> retried without streaming (rc 0); drop before any event -> retried
 *   streaming. Both happen even with CLAUDE_CODE_MAX_RETRIES=0.
 * - stall + close() -> "API Error: Unable to connect to API (...)", api_error_status null, rc 1.
 *
 * Recorded outputs for parser tests: test/fixtures/streams/*.ndjson (see the README there).
 */
export type {
  UsageSpec,
  ToolUseSpec,
  ScriptedTurn,
  RecordedRequest,
  ScriptFunction,
  ScriptedApiOptions,
  ScriptedApi,
} from './scripted-api/types.js';
export { startScriptedApi } from './scripted-api/server.js';
export { countRequestTokens, countTextTokens, firstUserText, firstUserTextRaw } from './scripted-api/tokens.js';
export { countRequestTokensForeign, countReplyTokensForeign, type ForeignCountSpec } from './scripted-api/foreign-tokens.js';
export { isMainLoopRequest } from './scripted-api/classify.js';
