/**
 * The script of a scripted OpenAI Responses API server: one entry per `POST /v1/responses`, the
 * codex CLI's only call. Every field a turn leaves out is computed (usage) or defaulted.
 */

/** Token figures a reply reports in `response.completed`; OpenAI's input_tokens include the cached ones. */
export interface ResponsesUsageSpec {
  input_tokens?: number;
  /** input_tokens_details.cached_tokens: part of input_tokens. */
  cached_tokens?: number;
  /** Includes reasoning_tokens. */
  output_tokens?: number;
  /** output_tokens_details.reasoning_tokens. */
  reasoning_tokens?: number;
}

/** A `function_call` output item, e.g. codex's shell tool `exec_command` with `{cmd}`. */
export interface FunctionCallSpec {
  type?: 'function';
  name: string;
  arguments: Record<string, unknown>;
  callId?: string;
}

/** A `custom_tool_call` output item: a freeform tool such as codex's `apply_patch`. */
export interface CustomToolCallSpec {
  type: 'custom';
  name: string;
  input: string;
  callId?: string;
}

export type ToolCallSpec = FunctionCallSpec | CustomToolCallSpec;

interface ReplyTiming {
  usage?: ResponsesUsageSpec;
  /** Delay before the response headers are sent. */
  latencyMs?: number;
  /** Delay between the last `response.output_item.done` and `response.completed` (codex starts tools at the item). */
  completeDelayMs?: number;
  /** A `reasoning` output item first: this text as its summary and (encoded) encrypted_content. */
  reasoning?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

export type TextTurn = { kind: 'text'; text: string } & ReplyTiming;
/** One or more tool calls in one response (codex runs them in parallel), with optional text first. */
export type CallsTurn = { kind: 'calls'; calls: ToolCallSpec[]; text?: string } & ReplyTiming;
/** An HTTP error with OpenAI's JSON error body `{error: {message, type, param, code}}`. */
export interface HttpErrorTurn {
  kind: 'http_error';
  status: number;
  message: string;
  type?: string;
  code?: string | null;
  param?: string | null;
  headers?: Record<string, string>;
  /** More fields of the body's `error` object (a usage limit's `resets_at`, `plan_type`). */
  errorFields?: Record<string, unknown>;
}
/** A 200 stream that fails: `response.created`, then `response.failed` with `response.error {code, message}`. */
export interface FailedTurn {
  kind: 'failed';
  code: string;
  message: string;
}
/** The headers and `afterEvents` SSE events of a text reply, then the socket is destroyed. */
export interface DropTurn {
  kind: 'drop';
  afterEvents?: number;
}
/** Never completes (with afterHeaders, the 200 and SSE headers are sent first). Ended by close(). */
export interface StallTurn {
  kind: 'stall';
  afterHeaders: boolean;
}

export type ResponsesTurn = TextTurn | CallsTurn | HttpErrorTurn | FailedTurn | DropTurn | StallTurn;

/** What codex says a request is for, from its `x-codex-turn-metadata` header ("turn", "compaction", ...). */
export type RequestKind = string;

export interface RecordedResponsesRequest {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, the raw string if it was not JSON, undefined if empty. */
  body: unknown;
  receivedAt: number;
  /** When the last byte of the answer was written (undefined while open or after an abort). */
  completedAt?: number;
  /** The client went away before the answer was complete. */
  aborted: boolean;
  /** `request_kind` of the x-codex-turn-metadata header; 'unknown' without one. */
  kind: RequestKind;
  /** cl100k count of the request (instructions, input items, tools): the usage's input_tokens unless scripted. */
  trueTokens: number;
  /** The script entry it was answered with (POST /v1/responses only). */
  turn?: ResponsesTurn;
}

export type ResponsesScriptFunction = (req: RecordedResponsesRequest, index: number) => ResponsesTurn;

export interface ScriptedResponsesOptions {
  script: ResponsesTurn[] | ResponsesScriptFunction;
  /** 'computed' (default): input_tokens from the request (cl100k), output from the reply; 'scripted': only what turns say (else 1). */
  usage?: 'computed' | 'scripted';
  defaultLatencyMs?: number;
  /** A request past the end of an array script: a text "Done." (default) or a 400. */
  onExhausted?: 'text-done' | 'error';
}

export interface ScriptedResponses {
  url: string;
  port: number;
  /** `url` + '/v1': what a codex provider's base_url is set to. */
  baseUrl: string;
  requests: RecordedResponsesRequest[];
  /** The POST /v1/responses requests (each consumed a script entry). */
  responseRequests(): RecordedResponsesRequest[];
  /** Resolves with the n-th (1-based) POST /v1/responses once it has arrived. */
  waitForRequest(n: number): Promise<RecordedResponsesRequest>;
  /** Stops listening and ends every open socket, stalled ones included. */
  close(): Promise<void>;
}
