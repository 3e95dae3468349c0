import type { ForeignCountSpec } from './foreign-tokens.js';

/** Token figures a scripted turn reports; any field left out is computed or defaulted. */
export type UsageSpec = {
  input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens?: number;
};

export type ToolUseSpec = { name: string; input: Record<string, unknown>; id?: string };

type TurnTiming = {
  usage?: UsageSpec;
  /** Delay before the response headers are sent (time to first byte). */
  latencyMs?: number;
  /** Extra response headers, e.g. the anthropic-ratelimit-unified-* set of a subscription. */
  headers?: Record<string, string>;
};

export type TextTurn = { kind: 'text'; text: string } & TurnTiming;
/** One tool call (name/input) or several (uses); optional text block before the calls. */
export type SingleToolUseTurn = {
  kind: 'tool_use';
  name: string;
  input: Record<string, unknown>;
  id?: string;
  text?: string;
} & TurnTiming;
export type MultiToolUseTurn = { kind: 'tool_use'; uses: ToolUseSpec[]; text?: string } & TurnTiming;
export type ErrorTurn = {
  kind: 'error';
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
};
/** Sends the headers and `afterEvents` SSE events (default 0) of a text reply, then destroys the socket. */
export type DropTurn = { kind: 'drop'; afterEvents?: number };
/** Never completes: with afterHeaders the 200 + SSE headers are sent first. Ended by close(). */
export type StallTurn = { kind: 'stall'; afterHeaders: boolean };

export type ScriptedTurn = TextTurn | SingleToolUseTurn | MultiToolUseTurn | ErrorTurn | DropTurn | StallTurn;

export interface RecordedRequest {
  index: number;
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, the raw string if it was not JSON, or undefined if empty. */
  body: unknown;
  receivedAt: number;
  /** The client went away before the response was complete. */
  aborted: boolean;
  /** A main agent-loop turn: consumed a script entry. */
  main: boolean;
  /** The request's count in the server's usage mode (cl100k, or the foreign count) for POST /v1/messages and count_tokens requests. */
  trueTokens?: number;
  /** The turn this request was answered with (main requests only). */
  turn?: ScriptedTurn;
}

export type ScriptFunction = (req: RecordedRequest, mainIndex: number) => ScriptedTurn;

export interface ScriptedApiOptions {
  script: ScriptedTurn[] | ScriptFunction;
  /**
   * 'computed' (default): input_tokens = countRequestTokens(body) (cl100k) unless the turn says
   * otherwise. 'foreign': input and output tokens from a count debussy does not share
   * (foreign-tokens.ts: another vocabulary, scaled per content kind, hidden overhead, optional
   * unseen jumps). 'scripted': only what the turns say.
   */
  usage?: 'computed' | 'scripted' | 'foreign';
  /** Tuning of the 'foreign' count. */
  foreign?: ForeignCountSpec;
  defaultLatencyMs?: number;
  /** What a main request past the end of an array script gets: a text "Done." (default) or a 400. */
  onExhausted?: 'text-done' | 'error';
  /**
   * Stream each text and tool-input block in pieces of this many characters (one `text_delta` or
   * `input_json_delta` each; a pair gives the sizes to cycle through, e.g. [7, 15] as the real API's
   * few-token deltas). Default: one delta per block.
   */
  deltaChars?: number | readonly [number, number];
}

export interface ScriptedApi {
  url: string;
  port: number;
  requests: RecordedRequest[];
  mainRequests(): RecordedRequest[];
  /** Resolves with the n-th (1-based) main request once it has arrived. */
  waitForMainRequest(n: number): Promise<RecordedRequest>;
  /** Stops listening and ends every open socket, stalled ones included. */
  close(): Promise<void>;
}
