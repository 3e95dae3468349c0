/**
 * Turns one line of `gemini --output-format stream-json` into debussy's AgentEvents. Pure; the
 * state carries what spans lines. gemini 0.61.0's events (test/harness/gemini-stream.test.ts):
 * - init {session_id, model}; message {role, content, delta}: the prompt, then the model's text in pieces;
 * - tool_use {tool_name, tool_id, parameters}: printed while the response streams; the tools run
 *   after it ends, and each tool_result {tool_id, status, output, error?: {type, message}} is printed
 *   once the whole batch has run; a call debussy's BeforeTool hook ended has error.type "stop_execution";
 * - error {severity, message}: a loop detected, a turn limit, an empty response;
 * - result {status: success|error, error?: {type, message}, stats}: the run's totals only.
 * The calls' usage is not here: it is in gemini's chat file (chat-file.ts). The result is held
 * back by the session until the chat file has been read to its end, so its totals are whole.
 */
import type { AgentEvent } from '../agent-events.js';
import { apiErrorType } from '../agent-errors.js';
import { isRecord, numberField, recordField, stringField, type JsonRecord } from '../json-fields.js';
import { redactThenCut, type Redactor } from '../../redact/index.js';
import { summarizeToolUse } from '../tool-summary.js';
import { classifyGeminiError } from './gemini-errors.js';
import { geminiTool } from './gemini-tools.js';

/** How gemini's run ended, as the stream said; the session builds the result event from it. */
export interface GeminiRunEnd {
  status: string;
  errorMessage?: string;
  durationMs?: number;
}

export interface GeminiStreamState {
  redact: Redactor;
  lineNumber: number;
  unparsedLines: number;
  sessionId: string | undefined;
  model: string | undefined;
  cwd: string | undefined;
  /** Tools printed (tool_use) whose result has not come, by id: their name and input as printed (a stop's guard lists them). */
  pendingTools: Map<string, { name: string; parameters: unknown }>;
  /** tool_use lines seen in all. */
  toolUses: number;
  /** tool_result lines seen in all. */
  toolResults: number;
  /** A tool_result said debussy's BeforeTool hook ended the run. */
  stoppedByHook: boolean;
  lastAgentText: string | undefined;
  /** The model's text arrives in pieces: one message id per stretch of text between tools. */
  textTurn: number;
  runEnd: GeminiRunEnd | undefined;
}

export function newGeminiStreamState(options: { redact?: Redactor; cwd?: string } = {}): GeminiStreamState {
  return {
    redact: options.redact ?? ((text) => text),
    lineNumber: 0,
    unparsedLines: 0,
    sessionId: undefined,
    model: undefined,
    cwd: options.cwd,
    pendingTools: new Map(),
    toolUses: 0,
    toolResults: 0,
    stoppedByHook: false,
    lastAgentText: undefined,
    textTurn: 0,
    runEnd: undefined,
  };
}

const PREVIEW_CHARS = 200;
/** gemini's tool error type when a BeforeTool hook answered {"continue": false}. */
export const HOOK_STOP_ERROR = 'stop_execution';

export function parseGeminiLine(line: string, state: GeminiStreamState): AgentEvent[] {
  state.lineNumber += 1;
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    return [unparsed(state, 'not-json', line)];
  }
  if (!isRecord(value)) return [unparsed(state, 'unknown-type', line)];
  switch (stringField(value, 'type')) {
    case 'init':
      state.sessionId = stringField(value, 'session_id') ?? state.sessionId;
      state.model = stringField(value, 'model') ?? state.model;
      return [{ type: 'init', sessionId: state.sessionId ?? 'unknown', model: state.model ?? 'unknown', ...(state.cwd === undefined ? {} : { cwd: state.cwd }), tools: [], agent: 'gemini' }];
    case 'message':
      return onMessage(value, state);
    case 'tool_use':
      return onToolUse(value, state);
    case 'tool_result':
      return onToolResult(value, state);
    case 'error':
      return onError(value);
    case 'result':
      return onResult(value, state);
    default:
      return [unparsed(state, 'unknown-type', line)];
  }
}

function unparsed(state: GeminiStreamState, reason: 'not-json' | 'unknown-type', line: string): AgentEvent {
  state.unparsedLines += 1;
  return { type: 'unparsed_line', lineNumber: state.lineNumber, reason, preview: redactThenCut(line, PREVIEW_CHARS, state.redact) };
}

function onMessage(value: JsonRecord, state: GeminiStreamState): AgentEvent[] {
  const text = stringField(value, 'content') ?? '';
  if (stringField(value, 'role') !== 'assistant' || text === '') return [];
  state.lastAgentText = text;
  return [{ type: 'assistant_text', messageId: `text-${state.textTurn}`, text }];
}

function onToolUse(value: JsonRecord, state: GeminiStreamState): AgentEvent[] {
  const id = stringField(value, 'tool_id') ?? `tool-${state.toolUses + 1}`;
  const name = stringField(value, 'tool_name') ?? 'unknown';
  const tool = geminiTool(name, value.parameters);
  state.toolUses += 1;
  state.textTurn += 1;
  state.pendingTools.set(id, { name, parameters: value.parameters });
  return [{ type: 'tool_start', messageId: id, toolUseId: id, name: tool.name, input: tool.input, summary: summarizeToolUse(tool.name, tool.input, state.cwd, state.redact) }];
}

function onToolResult(value: JsonRecord, state: GeminiStreamState): AgentEvent[] {
  const id = stringField(value, 'tool_id') ?? '';
  state.pendingTools.delete(id);
  state.toolResults += 1;
  const error = recordField(value, 'error');
  if (error !== undefined && stringField(error, 'type') === HOOK_STOP_ERROR) state.stoppedByHook = true;
  const text = stringField(value, 'output') ?? (error === undefined ? '' : (stringField(error, 'message') ?? ''));
  return [{ type: 'tool_result', toolUseId: id, isError: stringField(value, 'status') === 'error', text }];
}

function onError(value: JsonRecord): AgentEvent[] {
  // Warnings (a loop detected, a blocked call) change nothing for debussy; they are in the raw log.
  if (stringField(value, 'severity') !== 'error') return [];
  const message = stringField(value, 'message') ?? '';
  return [{ type: 'api_error', errorType: apiErrorType(classifyGeminiError(message).kind), text: message }];
}

function onResult(value: JsonRecord, state: GeminiStreamState): AgentEvent[] {
  const error = recordField(value, 'error');
  const errorMessage = error === undefined ? undefined : stringField(error, 'message');
  const stats = recordField(value, 'stats');
  state.runEnd = {
    status: stringField(value, 'status') ?? 'unknown',
    ...(errorMessage === undefined ? {} : { errorMessage }),
    ...(stats === undefined || numberField(stats, 'duration_ms') === undefined ? {} : { durationMs: numberField(stats, 'duration_ms') }),
  };
  state.pendingTools.clear();
  if (errorMessage === undefined) return [];
  return [{ type: 'api_error', errorType: apiErrorType(classifyGeminiError(errorMessage).kind), text: errorMessage }];
}
