/**
 * The script of a scripted Gemini API server: one entry per `POST
 * /v1beta/models/<model>:streamGenerateContent?alt=sse`, the Gemini CLI's model call. Every field a
 * turn leaves out is computed (usage) or defaulted.
 */

/** usageMetadata of a reply; Google's promptTokenCount includes the cached tokens. */
export interface GeminiUsageSpec {
  promptTokenCount?: number;
  /** cachedContentTokenCount: part of promptTokenCount. */
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** A `functionCall` part, e.g. the CLI's shell tool `run_shell_command {command}`. */
export interface GeminiCallSpec {
  name: string;
  args: Record<string, unknown>;
  /** functionCall.id (the CLI makes one when it is absent). */
  id?: string;
}

interface ReplyOptions {
  usage?: GeminiUsageSpec;
  /** Delay before the response headers are sent. */
  latencyMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

export type GeminiTextTurn = { kind: 'text'; text: string } & ReplyOptions;
/** One or more function calls in one response, with optional text first. */
export type GeminiCallsTurn = { kind: 'calls'; calls: GeminiCallSpec[]; text?: string } & ReplyOptions;
/** An HTTP error with Google's JSON error body `{error: {code, message, status}}`. */
export interface GeminiHttpErrorTurn {
  kind: 'http_error';
  status: number;
  message: string;
  /** google.rpc status name: RESOURCE_EXHAUSTED, INVALID_ARGUMENT, UNAUTHENTICATED, ... */
  rpcStatus?: string;
  /** error.details (e.g. a google.rpc.RetryInfo {retryDelay: "3s"}). */
  details?: unknown[];
  headers?: Record<string, string>;
}
/** Never answers (with afterHeaders, the 200 and SSE headers are sent first). Ended by close(). */
export interface GeminiStallTurn {
  kind: 'stall';
  afterHeaders: boolean;
}

export type GeminiTurn = GeminiTextTurn | GeminiCallsTurn | GeminiHttpErrorTurn | GeminiStallTurn;

export interface RecordedGeminiRequest {
  index: number;
  method: string;
  /** The path without the query: `/v1beta/models/gemini-2.5-pro:streamGenerateContent`. */
  path: string;
  /** The model named in the path. */
  model: string | undefined;
  /** streamGenerateContent, generateContent, countTokens, ... */
  action: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  receivedAt: number;
  /** The client went away before the answer was complete. */
  aborted: boolean;
  /** cl100k count of the request (system instruction, contents, tools): promptTokenCount unless scripted. */
  trueTokens: number;
  /** The script entry it was answered with (streamGenerateContent only). */
  turn?: GeminiTurn;
}

export type GeminiScriptFunction = (req: RecordedGeminiRequest, index: number) => GeminiTurn;

export interface ScriptedGeminiOptions {
  script: GeminiTurn[] | GeminiScriptFunction;
  /** A request past the end of an array script: a text "Done." (default) or a 400. */
  onExhausted?: 'text-done' | 'error';
}

export interface ScriptedGemini {
  url: string;
  port: number;
  requests: RecordedGeminiRequest[];
  /** The streamGenerateContent requests (each consumed a script entry); gemini's side requests (non-streaming generateContent, e.g. its compression's summary) are in `requests` only. */
  modelRequests(): RecordedGeminiRequest[];
  /** Resolves with the n-th (1-based) model request once it has arrived. */
  waitForRequest(n: number): Promise<RecordedGeminiRequest>;
  /** Stops listening and ends every open socket, stalled ones included. */
  close(): Promise<void>;
}
