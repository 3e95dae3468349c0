/**
 * Turns one line of `codex app-server` stdout into debussy's AgentEvents. One debussy session is
 * one app-server process, one thread and one turn (turn/start with the prompt). Every field is
 * narrowed from `unknown`; a line that is not JSON, or a notification this version does not
 * know, becomes an `unparsed_line`. Pure; the state carries what spans lines. Measured with codex
 * 0.171.0 (test/harness/codex-app-server*.test.ts, fixtures in test/fixtures/codex-streams/):
 * - `rawResponse/completed` {responseId, usage} (thread/start's experimentalRawEvents): each call's
 *   usage as the API reported it, sent when the response completes, before its tools run. OpenAI's
 *   inputTokens include cachedInputTokens: the context of the call is inputTokens.
 * - `thread/tokenUsage/updated` {last, total, modelContextWindow}: sent once the call's tools have
 *   finished, before the next request; the window (258,400 for gpt-5.5: 95% of 272,000). On a
 *   resumed thread (no raw events there) it is the only per-call usage, and the first one, before
 *   turn/started, replays the saved thread's last call.
 * - `rawResponseItem/completed` {item}: each item codex adds to the history, the response's output
 *   items among them, each sent at its `output_item.done`, before the response's
 *   `rawResponse/completed`. A tool call's item (function_call, custom_tool_call, local_shell_call)
 *   carries its `call_id`, which the PreToolUse hook gets as `tool_use_id`: the stop guard lets
 *   through the calls of the stop's own response by it (codex-stop.ts).
 * - item/started, item/completed: commandExecution (shell), fileChange (apply_patch), mcpToolCall,
 *   agentMessage, contextCompaction. A call refused by a PreToolUse hook has no item at all.
 * - error {error, willRetry}; turn/completed {turn: {status completed|interrupted|failed, error}}.
 */
import type { AgentEvent } from '../agent-events.js';
import { numberField, recordField, stringField, type JsonRecord } from '../json-fields.js';
import { redactThenCut, type Redactor } from '../../redact/index.js';
import { summarizeToolUse } from '../tool-summary.js';
import { classifyMessage, codexVersionOf, threadOfResponse, type AppServerMessage } from './app-server-protocol.js';
import { apiErrorType, classifyCodexError, parseReconnecting } from './codex-errors.js';
import { codexTool } from './codex-tools.js';
import { rateLimitEvents } from './codex-rate-limits.js';
import { callEvents, newTotals, resultEvent, type CallUsage, type CallTotals, type PriceCall } from '../call-usage.js';

export interface CodexParseState {
  redact: Redactor;
  lineNumber: number;
  unparsedLines: number;
  version: string | undefined;
  threadId: string | undefined;
  cwd: string | undefined;
  initSent: boolean;
  /** turn/started seen: a tokenUsage before it replays a resumed thread's past. */
  turnStarted: boolean;
  turnId: string | undefined;
  /** turn/completed seen. */
  turnEnded: boolean;
  /**
   * A request of the turn is under way and its response has not completed: from turn/started, and
   * from each thread/tokenUsage/updated (it precedes the next request), to rawResponse/completed.
   * Known only with raw events (a resumed thread has none: then never set).
   */
  responseOpen: boolean;
  /** Calls whose tools have all finished (thread/tokenUsage/updated has come for them). */
  settledCalls: number;
  /** The tool call ids of the response under way (rawResponseItem/completed), until its rawResponse/completed. */
  openResponseCallIds: string[];
  /** The tool call ids of each call that had any, by the call's number (1-based, as totals.calls). */
  callIdsByCall: Map<number, readonly string[]>;
  /** thread/start asked for raw events (a resumed thread gets none). */
  rawEventsAsked: boolean;
  /** rawResponse/completed seen: from then on usage comes from it alone. */
  rawUsage: boolean;
  /** The context when codex's compaction started (its summary request's usage is not the session's context). */
  compactionFrom: number | undefined;
  /** thread total of the last tokenUsage taken (codex repeats an unchanged one around a compaction). */
  lastThreadTotal: number | undefined;
  pendingToolIds: Set<string>;
  /** This session's calls (model, window, tokens, estimated cost). */
  totals: CallTotals;
  lastAgentText: string | undefined;
}

export function newCodexParseState(options: { redact?: Redactor; priceCall?: PriceCall; rawEvents?: boolean } = {}): CodexParseState {
  return {
    rawEventsAsked: options.rawEvents ?? true,
    redact: options.redact ?? ((text) => text),
    lineNumber: 0,
    unparsedLines: 0,
    version: undefined,
    threadId: undefined,
    cwd: undefined,
    initSent: false,
    turnStarted: false,
    turnId: undefined,
    turnEnded: false,
    responseOpen: false,
    settledCalls: 0,
    openResponseCallIds: [],
    callIdsByCall: new Map(),
    rawUsage: false,
    compactionFrom: undefined,
    lastThreadTotal: undefined,
    pendingToolIds: new Set(),
    totals: newTotals(options.priceCall),
    lastAgentText: undefined,
  };
}

const PREVIEW_CHARS = 200;

/** Notifications that carry nothing a session needs (or that debussy opts out of). */
const IGNORED = new Set([
  'thread/status/changed',
  'thread/readState/changed',
  'thread/goal/cleared',
  'thread/goal/updated',
  'thread/name/updated',
  'thread/settings/updated',
  'thread/compacted',
  'remoteControl/status/changed',
  'configWarning',
  'warning',
  'deprecationNotice',
  'hook/started',
  'hook/completed',
  'turn/diff/updated',
  'turn/plan/updated',
  'item/agentMessage/delta',
  'item/commandExecution/outputDelta',
  'item/commandExecution/terminalInteraction',
  'item/fileChange/outputDelta',
  'item/fileChange/patchUpdated',
  'item/reasoning/summaryTextDelta',
  'item/reasoning/summaryPartAdded',
  'item/reasoning/textDelta',
  'item/plan/delta',
  'item/mcpToolCall/progress',
  'mcpServer/startupStatus/updated',
  'serverRequest/resolved',
  'skills/changed',
  'model/rerouted',
  'model/verification',
]);

export function parseAppServerLine(line: string, state: CodexParseState): AgentEvent[] {
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    state.lineNumber += 1;
    return [unparsed(state, 'not-json', line)];
  }
  return appServerMessageEvents(classifyMessage(value), line, state);
}

/** The events of one line already parsed and classified (the session reads the message for the protocol too). */
export function appServerMessageEvents(message: AppServerMessage | undefined, line: string, state: CodexParseState): AgentEvent[] {
  state.lineNumber += 1;
  if (message === undefined) return [unparsed(state, 'unknown-type', line)];
  switch (message.kind) {
    case 'response':
      return onResponse(message.result, state);
    case 'error_response':
    case 'server_request':
      return [];
    case 'notification':
      return onNotification(message.method, message.params, state, line);
  }
}

function unparsed(state: CodexParseState, reason: 'not-json' | 'unknown-type', line: string): AgentEvent {
  state.unparsedLines += 1;
  return { type: 'unparsed_line', lineNumber: state.lineNumber, reason, preview: redactThenCut(line, PREVIEW_CHARS, state.redact) };
}

function onResponse(result: unknown, state: CodexParseState): AgentEvent[] {
  state.version ??= codexVersionOf(result);
  const thread = threadOfResponse(result);
  if (thread === undefined) return [];
  state.threadId = thread.threadId;
  state.totals.model = thread.model ?? state.totals.model;
  state.cwd = thread.cwd ?? state.cwd;
  return initEvent(state);
}

function initEvent(state: CodexParseState): AgentEvent[] {
  if (state.initSent || state.threadId === undefined) return [];
  state.initSent = true;
  return [{ type: 'init', sessionId: state.threadId, model: state.totals.model ?? 'unknown', cwd: state.cwd, version: state.version, tools: [], agent: 'codex' }];
}

function onNotification(method: string, params: JsonRecord, state: CodexParseState, line: string): AgentEvent[] {
  switch (method) {
    case 'thread/started': {
      const thread = recordField(params, 'thread');
      if (thread !== undefined) {
        state.threadId ??= stringField(thread, 'id');
        state.totals.model ??= stringField(thread, 'model');
      }
      return initEvent(state);
    }
    case 'turn/started':
      state.turnStarted = true;
      state.turnId = stringField(recordField(params, 'turn') ?? {}, 'id') ?? state.turnId;
      // Raw events were asked for at thread/start; a resumed thread has none.
      state.responseOpen = state.rawEventsAsked;
      return [{ type: 'request_started' }];
    case 'rawResponse/completed':
      return onRawUsage(params, state);
    case 'rawResponseItem/completed': {
      const callId = toolCallIdOf(recordField(params, 'item'));
      if (callId !== undefined) state.openResponseCallIds.push(callId);
      return [];
    }
    case 'thread/tokenUsage/updated':
      return onTokenUsage(params, state);
    case 'item/started':
      return onItem(recordField(params, 'item'), 'started', state);
    case 'item/completed':
      return onItem(recordField(params, 'item'), 'completed', state);
    case 'account/rateLimits/updated':
      return rateLimitEvents(params);
    case 'error':
      return onError(params);
    case 'turn/completed':
      return onTurnCompleted(recordField(params, 'turn'), state);
    default:
      return IGNORED.has(method) ? [] : [unparsed(state, 'unknown-type', line)];
  }
}

function usageOf(record: JsonRecord | undefined): CallUsage | undefined {
  if (record === undefined) return undefined;
  const input = numberField(record, 'inputTokens');
  if (input === undefined) return undefined;
  return {
    input,
    cached: numberField(record, 'cachedInputTokens') ?? 0,
    cacheWrite: numberField(record, 'cacheWriteInputTokens') ?? 0,
    output: numberField(record, 'outputTokens') ?? 0,
  };
}

/** A tool call's `call_id`: the output items the model asks a tool with. Any other item (a message, a tool's output): undefined. */
/**
 * Whether a line of codex's stdout goes into the session's raw log. rawResponseItem/completed
 * repeats every item of the history (a tool's whole output, the model's messages, codex's own
 * instructions at the turn's start), which the item/* notifications carry already: only its tool
 * calls are kept (their ids are what the stop guard reads), so a long tool output is not logged twice.
 */
export function keepInRawLog(message: AppServerMessage | undefined): boolean {
  if (message?.kind !== 'notification' || message.method !== 'rawResponseItem/completed') return true;
  return toolCallIdOf(recordField(message.params, 'item')) !== undefined;
}

export function toolCallIdOf(item: JsonRecord | undefined): string | undefined {
  if (item === undefined) return undefined;
  const type = stringField(item, 'type');
  if (type !== 'function_call' && type !== 'custom_tool_call' && type !== 'local_shell_call') return undefined;
  const callId = stringField(item, 'call_id');
  return callId === '' ? undefined : callId;
}

/**
 * The tool call ids of call `call` (1-based): a complete call's, or, for the call after the last
 * complete one, those its response has streamed so far.
 */
export function toolCallIdsOfCall(state: CodexParseState, call: number): readonly string[] {
  if (call === state.totals.calls + 1) return state.openResponseCallIds;
  return state.callIdsByCall.get(call) ?? [];
}

function onRawUsage(params: JsonRecord, state: CodexParseState): AgentEvent[] {
  const usage = usageOf(recordField(params, 'usage'));
  const responseId = stringField(params, 'responseId');
  const callIds = state.openResponseCallIds;
  state.openResponseCallIds = [];
  if (usage === undefined || responseId === undefined) return [];
  state.rawUsage = true;
  state.responseOpen = false;
  const events = callEvents(state.totals, responseId, usage);
  if (callIds.length > 0) state.callIdsByCall.set(state.totals.calls, callIds);
  return events;
}

function onTokenUsage(params: JsonRecord, state: CodexParseState): AgentEvent[] {
  const tokenUsage = recordField(params, 'tokenUsage');
  if (tokenUsage === undefined) return [];
  state.totals.contextWindow = numberField(tokenUsage, 'modelContextWindow') ?? state.totals.contextWindow;
  const total = numberField(recordField(tokenUsage, 'total') ?? {}, 'totalTokens');
  const repeated = total !== undefined && total === state.lastThreadTotal;
  state.lastThreadTotal = total;
  // The call's tools are done; the next request goes out now (unless the turn ends).
  if (state.turnStarted && state.rawUsage && !repeated) state.responseOpen = true;
  const usage = usageOf(recordField(tokenUsage, 'last'));
  if (!state.turnStarted) {
    // A resumed thread's saved state: the context it left off with, not a call of this session.
    if (usage !== undefined) state.totals.lastContextTokens = usage.input;
    return [];
  }
  const events = state.rawUsage || repeated || usage === undefined || usage.input === 0 ? [] : callEvents(state.totals, `${stringField(params, 'turnId') ?? 'turn'}:${total ?? state.totals.calls}`, usage);
  if (!repeated) state.settledCalls = state.totals.calls;
  return events;
}

function onItem(item: JsonRecord | undefined, phase: 'started' | 'completed', state: CodexParseState): AgentEvent[] {
  if (item === undefined) return [];
  const id = stringField(item, 'id') ?? '';
  const type = stringField(item, 'type');
  if (type === 'agentMessage') {
    const text = stringField(item, 'text') ?? '';
    if (phase !== 'completed' || text === '') return [];
    state.lastAgentText = text;
    return [{ type: 'assistant_text', messageId: id, text }];
  }
  if (type === 'contextCompaction') {
    if (phase === 'started') state.compactionFrom = state.totals.lastContextTokens;
    return [{ type: 'compaction', stage: phase === 'started' ? 'started' : 'boundary', preTokens: state.compactionFrom }];
  }
  const tool = codexTool(item);
  if (tool === undefined) return [];
  if (phase === 'started') {
    if (state.pendingToolIds.has(id)) return [];
    state.pendingToolIds.add(id);
    return [{ type: 'tool_start', messageId: id, toolUseId: id, name: tool.name, input: tool.input, summary: summarizeToolUse(tool.name, tool.input, state.cwd, state.redact) }];
  }
  const started = state.pendingToolIds.delete(id);
  const events: AgentEvent[] = started ? [] : [{ type: 'tool_start', messageId: id, toolUseId: id, name: tool.name, input: tool.input, summary: summarizeToolUse(tool.name, tool.input, state.cwd, state.redact) }];
  events.push({ type: 'tool_result', toolUseId: id, isError: tool.isError, text: tool.output });
  return events;
}

function onError(params: JsonRecord): AgentEvent[] {
  const error = recordField(params, 'error') ?? {};
  const message = stringField(error, 'message') ?? '';
  const classified = classifyCodexError({ message, codexErrorInfo: error.codexErrorInfo, additionalDetails: stringField(error, 'additionalDetails') });
  if (params.willRetry === true) {
    const retry = parseReconnecting(message);
    // codex waits out a retry-after itself and does not say how long.
    return [{ type: 'api_retry', attempt: retry?.attempt ?? 1, maxRetries: retry?.maxRetries ?? 0, delayMs: 0, errorStatus: classified.httpStatus ?? null }];
  }
  return [{ type: 'api_error', errorType: apiErrorType(classified.kind), text: message }];
}

function onTurnCompleted(turn: JsonRecord | undefined, state: CodexParseState): AgentEvent[] {
  const status = (turn === undefined ? undefined : stringField(turn, 'status')) ?? 'unknown';
  const error = turn === undefined ? undefined : recordField(turn, 'error');
  const errorText = error === undefined ? undefined : stringField(error, 'message');
  const failure = error === undefined ? undefined : classifyCodexError({ message: errorText, codexErrorInfo: error.codexErrorInfo, additionalDetails: stringField(error, 'additionalDetails') });
  state.pendingToolIds.clear();
  state.turnEnded = true;
  state.responseOpen = false;
  return [
    resultEvent(state.totals, {
      status,
      text: errorText ?? state.lastAgentText,
      sessionId: state.threadId,
      ...(failure === undefined ? {} : { failure }),
      durationMs: turn === undefined ? undefined : numberField(turn, 'durationMs'),
    }),
  ];
}
