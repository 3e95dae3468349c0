/**
 * Turns one line of a codex rollout file ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*-<thread id>.jsonl,
 * written by `codex exec` and `codex app-server` alike as the session runs) into debussy's
 * AgentEvents: for `debussy replay` and `logs` of a codex session. Pure. Records of codex 0.171.0
 * (test/fixtures/codex-streams/0.171.0/*.rollout.jsonl):
 * - session_meta {id, cwd, cli_version}; turn_context {model, cwd}: the session;
 * - token_usage_record {response_id, usage}: each call's usage, written when the response completes;
 *   event_msg token_count {info.model_context_window}: the window, written after the call's tools;
 * - response_item function_call / custom_tool_call and their *_output, message (assistant text);
 *   a call a PreToolUse hook refused is here too, its output "Command blocked by PreToolUse hook: ...";
 * - compacted {message, replacement_history}: codex's compaction;
 * - event_msg task_started / task_complete {last_agent_message, error?: {message, codex_error_info}}
 *   / turn_aborted {reason}: a turn's start and end (a resumed rollout holds several).
 */
import type { AgentEvent } from '../agent-events.js';
import { isRecord, numberField, recordField, stringField, type JsonRecord } from '../json-fields.js';
import { redactThenCut, type Redactor } from '../../redact/index.js';
import { summarizeToolUse } from '../tool-summary.js';
import { apiErrorType, classifyCodexError, kindOfText } from './codex-errors.js';
import { callEvents, newTotals, resultEvent, type CallUsage, type CallTotals, type PriceCall } from '../call-usage.js';

export interface RolloutParseState {
  redact: Redactor;
  lineNumber: number;
  unparsedLines: number;
  sessionId: string | undefined;
  cwd: string | undefined;
  version: string | undefined;
  initSent: boolean;
  totals: CallTotals;
  /** Tool names by call id, for their outputs. */
  callNames: Map<string, string>;
}

export function newRolloutParseState(options: { redact?: Redactor; priceCall?: PriceCall } = {}): RolloutParseState {
  return {
    redact: options.redact ?? ((text) => text),
    lineNumber: 0,
    unparsedLines: 0,
    sessionId: undefined,
    cwd: undefined,
    version: undefined,
    initSent: false,
    totals: newTotals(options.priceCall),
    callNames: new Map(),
  };
}

const PREVIEW_CHARS = 200;
const IGNORED_RECORDS = new Set(['world_state']);
const IGNORED_EVENTS = new Set(['thread_settings_applied', 'item_completed', 'user_message', 'agent_message', 'agent_reasoning', 'exec_command_end', 'patch_apply_end']);

export function parseRolloutLine(line: string, state: RolloutParseState): AgentEvent[] {
  state.lineNumber += 1;
  let record: unknown;
  try {
    record = JSON.parse(line) as unknown;
  } catch {
    return [unparsed(state, 'not-json', line)];
  }
  if (!isRecord(record)) return [unparsed(state, 'unknown-type', line)];
  const payload = recordField(record, 'payload') ?? {};
  switch (stringField(record, 'type')) {
    case 'session_meta':
      state.sessionId = stringField(payload, 'id') ?? state.sessionId;
      state.cwd = stringField(payload, 'cwd') ?? state.cwd;
      state.version = stringField(payload, 'cli_version') ?? state.version;
      return [];
    case 'turn_context':
      // Each turn (and the rest of one after a compaction) starts with one, after task_started.
      state.totals.model = stringField(payload, 'model') ?? state.totals.model;
      state.cwd = stringField(payload, 'cwd') ?? state.cwd;
      return [...initEvent(state), { type: 'request_started' }];
    case 'token_usage_record':
      return usageRecord(payload, state);
    case 'response_item':
      return responseItem(payload, state);
    case 'compacted':
      // Written after the summary request's usage: the context before it is the one compacted.
      return [{ type: 'compaction', stage: 'boundary', preTokens: state.totals.previousContextTokens }];
    case 'event_msg':
      return eventMsg(payload, state, line);
    default:
      return IGNORED_RECORDS.has(stringField(record, 'type') ?? '') ? [] : [unparsed(state, 'unknown-type', line)];
  }
}

function unparsed(state: RolloutParseState, reason: 'not-json' | 'unknown-type', line: string): AgentEvent {
  state.unparsedLines += 1;
  return { type: 'unparsed_line', lineNumber: state.lineNumber, reason, preview: redactThenCut(line, PREVIEW_CHARS, state.redact) };
}

function initEvent(state: RolloutParseState): AgentEvent[] {
  if (state.initSent || state.sessionId === undefined) return [];
  state.initSent = true;
  return [{ type: 'init', sessionId: state.sessionId, model: state.totals.model ?? 'unknown', cwd: state.cwd, version: state.version, tools: [], agent: 'codex' }];
}

function usageRecord(payload: JsonRecord, state: RolloutParseState): AgentEvent[] {
  const usage = recordField(payload, 'usage');
  const input = usage === undefined ? undefined : numberField(usage, 'input_tokens');
  if (usage === undefined || input === undefined) return [];
  const call: CallUsage = {
    input,
    cached: numberField(usage, 'cached_input_tokens') ?? 0,
    cacheWrite: numberField(usage, 'cache_write_input_tokens') ?? 0,
    output: numberField(usage, 'output_tokens') ?? 0,
  };
  return callEvents(state.totals, stringField(payload, 'response_id') ?? `call-${state.totals.calls + 1}`, call);
}

/** The files an apply_patch touches, from its `*** Add/Update/Delete File:` lines. */
export function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
}

function toolInput(name: string, payload: JsonRecord): { name: string; input: JsonRecord } {
  if (stringField(payload, 'type') === 'custom_tool_call') {
    const files = patchFiles(stringField(payload, 'input') ?? '');
    return { name, input: { ...(files[0] === undefined ? {} : { file_path: files[0] }), files } };
  }
  let args: unknown;
  try {
    args = JSON.parse(stringField(payload, 'arguments') ?? '{}') as unknown;
  } catch {
    args = {};
  }
  const input = isRecord(args) ? args : {};
  // codex's shell tool, named as codex's hooks name it.
  if (name === 'exec_command') return { name: 'Bash', input: { command: stringField(input, 'cmd') ?? '' } };
  return { name, input };
}

/** Whether a tool output says it failed: a non-zero exit, a hook's refusal, or an interrupted turn's abort. */
export function outputFailed(output: string): boolean {
  if (output.startsWith('Command blocked by PreToolUse hook:') || /\naborted by user$/.test(output)) return true;
  const exit = /(?:Process exited with code|^Exit code:) (-?\d+)/m.exec(output);
  return exit !== null && exit[1] !== '0';
}

function responseItem(payload: JsonRecord, state: RolloutParseState): AgentEvent[] {
  const type = stringField(payload, 'type');
  const callId = stringField(payload, 'call_id') ?? '';
  if (type === 'function_call' || type === 'custom_tool_call') {
    const tool = toolInput(stringField(payload, 'name') ?? 'unknown', payload);
    state.callNames.set(callId, tool.name);
    return [{ type: 'tool_start', messageId: callId, toolUseId: callId, name: tool.name, input: tool.input, summary: summarizeToolUse(tool.name, tool.input, state.cwd, state.redact) }];
  }
  if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const raw = payload.output;
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw ?? '');
    return [{ type: 'tool_result', toolUseId: callId, isError: outputFailed(text), text }];
  }
  if (type === 'message' && stringField(payload, 'role') === 'assistant') {
    const parts = Array.isArray(payload.content) ? payload.content.filter(isRecord) : [];
    const text = parts.map((part) => stringField(part, 'text') ?? '').join('');
    return text === '' ? [] : [{ type: 'assistant_text', messageId: stringField(payload, 'id') ?? '', text }];
  }
  return [];
}

function eventMsg(payload: JsonRecord, state: RolloutParseState, line: string): AgentEvent[] {
  const type = stringField(payload, 'type') ?? '';
  switch (type) {
    case 'task_started':
      return [];
    case 'token_count': {
      const info = recordField(payload, 'info');
      state.totals.contextWindow = (info === undefined ? undefined : numberField(info, 'model_context_window')) ?? state.totals.contextWindow;
      return [];
    }
    case 'task_complete': {
      const error = recordField(payload, 'error');
      const text = stringField(payload, 'last_agent_message');
      if (error === undefined) return [resultEvent(state.totals, { status: 'completed', text, sessionId: state.sessionId, durationMs: numberField(payload, 'duration_ms') })];
      const message = stringField(error, 'message') ?? '';
      const info = camelKeys(error.codex_error_info);
      const failure = classifyCodexError({ message, codexErrorInfo: info });
      return [
        { type: 'api_error', errorType: apiErrorType(failure.kind), text: message },
        resultEvent(state.totals, { status: 'failed', text: message, sessionId: state.sessionId, failure, durationMs: numberField(payload, 'duration_ms') }),
      ];
    }
    case 'turn_aborted':
      return [resultEvent(state.totals, { status: stringField(payload, 'reason') === 'interrupted' ? 'interrupted' : 'aborted', sessionId: state.sessionId, durationMs: numberField(payload, 'duration_ms') })];
    case 'error':
    case 'stream_error': {
      const message = stringField(payload, 'message') ?? '';
      return [{ type: 'api_error', errorType: apiErrorType(kindOfText(message)), text: message }];
    }
    default:
      return IGNORED_EVENTS.has(type) ? [] : [unparsed(state, 'unknown-type', line)];
  }
}

/** The rollout writes codex_error_info in snake_case ("context_window_exceeded", {http_connection_failed: {http_status_code}}); the app-server in camelCase. */
export function camelKeys(value: unknown): unknown {
  const camel = (name: string) => name.replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase());
  if (typeof value === 'string') return camel(value);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [camel(key), isRecord(v) ? camelKeys(v) : v]));
}
