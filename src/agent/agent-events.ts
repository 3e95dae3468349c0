/**
 * What a claude session reports, as a tagged union. The runner turns each stream-json line into
 * zero or more of these (see stream-parser.ts); the orchestrator, the context monitor and the
 * reporters consume them. Fields the wire may omit stay optional.
 */
export type AgentEvent =
  /** `agent`: the CLI's name when it is not claude (codex, gemini). */
  | { type: 'init'; sessionId: string; model: string; cwd?: string; version?: string; tools: string[]; agent?: string }
  /** `system/status` "requesting": an API request is about to start (needs --include-partial-messages). */
  | { type: 'request_started' }
  /** The context the model saw on one API call; once per message id, main agent only. */
  | {
      type: 'usage';
      messageId: string;
      model: string;
      inputTokens: number;
      cacheReadTokens: number;
      cacheCreationTokens: number;
      /** input + cache read + cache creation. */
      contextTokens: number;
    }
  /** A main-agent response ended: its exact `output_tokens` (the final `message_delta`), text, tool calls and thinking included. */
  | { type: 'output_usage'; outputTokens: number }
  /** `parentToolUseId` is set for the messages of a subagent (they do not enter the main context). */
  | { type: 'assistant_text'; messageId: string; text: string; parentToolUseId?: string }
  | {
      type: 'tool_start';
      messageId: string;
      toolUseId: string;
      name: string;
      input: unknown;
      /** One line for people: "Bash: npm test", "Edit: src/x.ts". */
      summary: string;
      parentToolUseId?: string;
    }
  /** `text` is what the model sees (the CLI already replaced a huge Bash output by its preview). */
  | { type: 'tool_result'; toolUseId: string; isError: boolean; text: string; parentToolUseId?: string }
  /** The CLI gave up on the API: its synthetic assistant message with an `error` field. */
  | { type: 'api_error'; errorType: string; text: string }
  | { type: 'api_retry'; attempt: number; maxRetries: number; delayMs: number; errorStatus: number | null }
  | { type: 'model_fallback'; from?: string; to?: string }
  /** `rate_limit_event`: a subscription's usage limit changed status (rejected: the limit is hit); resetsAt in unix seconds. */
  | { type: 'rate_limit'; status: string; resetsAt?: number; rateLimitType?: string }
  | { type: 'compaction'; stage: 'started' | 'boundary'; preTokens?: number; postTokens?: number }
  | {
      type: 'result';
      subtype: string;
      isError: boolean;
      terminalReason?: string;
      apiErrorStatus?: number | null;
      text?: string;
      sessionId?: string;
      costUsd: number;
      /** `result.usage.input_tokens`: uncached input summed over all turns (not the context size). */
      inputTokens: number;
      outputTokens: number;
      /** From `result.modelUsage` (the session's model, else the largest window listed). */
      contextWindow?: number;
      numTurns?: number;
      durationMs?: number;
      /** `result.permission_denials`: the tool calls claude refused (no permission, a deny rule, a blocking hook). */
      permissionDenials?: PermissionDenial[];
    }
  /** A line that could not be understood: counted and logged, never fatal. */
  | { type: 'unparsed_line'; lineNumber: number; reason: 'not-json' | 'unknown-type'; preview: string };

export type AgentEventType = AgentEvent['type'];
export interface PermissionDenial {
  toolName: string;
  toolUseId?: string;
  input: unknown;
}
export type ResultEvent = Extract<AgentEvent, { type: 'result' }>;
export type ApiErrorEvent = Extract<AgentEvent, { type: 'api_error' }>;
export type ApiRetryEvent = Extract<AgentEvent, { type: 'api_retry' }>;
