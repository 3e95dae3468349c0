/**
 * Turns one line of `claude -p --output-format stream-json --verbose` output into typed events.
 * Every field is narrowed from `unknown`; a line that is not JSON or not a known event becomes an
 * `unparsed_line` event instead of an exception. The only state kept across lines is what the
 * stream itself repeats or spreads out (see StreamParseState).
 */
import type { AgentEvent, PermissionDenial, ResultEvent } from '../agent-events.js';
import { arrayField, contentText, isRecord, numberField, recordField, stringField, type JsonRecord } from '../json-fields.js';
import { redactThenCut, type Redactor } from '../../redact/index.js';
import { summarizeToolUse } from '../tool-summary.js';

export interface StreamParseState {
  /** Applied to the text a summary or a preview is cut from, before the cut. */
  redact: Redactor;
  /** Lines seen so far (1-based number of the last line). */
  lineNumber: number;
  unparsedLines: number;
  /** A response with several blocks repeats its usage on each block's event: count each id once. */
  seenMessageIds: RecentIds;
  seenToolUseIds: RecentIds;
  /** Tools started and not yet answered by a tool_result (main agent and subagents). */
  pendingToolUseIds: Set<string>;
  /**
   * A streamed main-agent response is open: `message_start` seen, no `message_stop` yet. Only
   * known with --include-partial-messages; cleared when a new request starts or the session ends.
   */
  responseOpen: boolean;
  /** From system/init. */
  model: string | undefined;
  cwd: string | undefined;
  /** Model of the last main-agent usage (the API's name, without the CLI's `[1m]` marker). */
  usageModel: string | undefined;
  /**
   * The main agent's tokens as the stream reports them (input without the cached part, from each
   * response's start; output from each response's final `message_delta`): the totals of a session
   * that ends without its `result` (a stopped one), which alone reports them.
   */
  streamTokens: { input: number; output: number };
}

/**
 * The ids seen lately. Repeats come close together (the blocks of one response), so remembering
 * the last few thousand keeps memory flat however long the session runs.
 */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = 4_096) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (oldest.done !== true) this.ids.delete(oldest.value);
    }
  }
}

export function newStreamParseState(redact: Redactor = (text) => text): StreamParseState {
  return {
    redact,
    lineNumber: 0,
    unparsedLines: 0,
    seenMessageIds: new RecentIds(),
    seenToolUseIds: new RecentIds(),
    pendingToolUseIds: new Set(),
    responseOpen: false,
    model: undefined,
    cwd: undefined,
    usageModel: undefined,
    streamTokens: { input: 0, output: 0 },
  };
}

const PREVIEW_CHARS = 200;
const SYNTHETIC_MODEL = '<synthetic>';

export function parseStreamLine(line: string, state: StreamParseState): AgentEvent[] {
  state.lineNumber += 1;
  if (line.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [unparsed(line, 'not-json', state)];
  }
  if (!isRecord(value)) return [unparsed(line, 'unknown-type', state)];
  switch (value.type) {
    case 'stream_event':
      return parseStreamEvent(value, state);
    case 'assistant':
      return parseAssistant(value, state) ?? [unparsed(line, 'unknown-type', state)];
    case 'user':
      return parseUser(value, state);
    case 'system':
      return parseSystem(value, state);
    case 'result':
      state.responseOpen = false;
      return [parseResult(value, state)];
    case 'rate_limit_event':
      return parseRateLimit(value) ?? [unparsed(line, 'unknown-type', state)];
    default:
      return [unparsed(line, 'unknown-type', state)];
  }
}

/** `rate_limit_event` (subscription auth only, 2.1.197): the unified limit's status, reset (unix s) and kind. */
function parseRateLimit(record: JsonRecord): AgentEvent[] | undefined {
  const info = recordField(record, 'rate_limit_info');
  const status = info === undefined ? undefined : stringField(info, 'status');
  if (info === undefined || status === undefined) return undefined;
  const resetsAt = numberField(info, 'resetsAt');
  const rateLimitType = stringField(info, 'rateLimitType');
  return [{ type: 'rate_limit', status, ...(resetsAt === undefined ? {} : { resetsAt }), ...(rateLimitType === undefined ? {} : { rateLimitType }) }];
}

function unparsed(line: string, reason: 'not-json' | 'unknown-type', state: StreamParseState): AgentEvent {
  state.unparsedLines += 1;
  return { type: 'unparsed_line', lineNumber: state.lineNumber, reason, preview: redactThenCut(line, PREVIEW_CHARS, state.redact) };
}

function parentOf(record: JsonRecord): string | undefined {
  return stringField(record, 'parent_tool_use_id');
}

function usageEvent(messageId: string | undefined, message: JsonRecord, state: StreamParseState): AgentEvent[] {
  const usage = recordField(message, 'usage');
  const model = stringField(message, 'model') ?? '';
  if (messageId === undefined || usage === undefined || model === SYNTHETIC_MODEL) return [];
  if (state.seenMessageIds.has(messageId)) return [];
  state.seenMessageIds.add(messageId);
  state.usageModel = model || state.usageModel;
  const inputTokens = numberField(usage, 'input_tokens') ?? 0;
  const cacheReadTokens = numberField(usage, 'cache_read_input_tokens') ?? 0;
  const cacheCreationTokens = numberField(usage, 'cache_creation_input_tokens') ?? 0;
  state.streamTokens.input += inputTokens;
  return [
    {
      type: 'usage',
      messageId,
      model,
      inputTokens,
      cacheReadTokens,
      cacheCreationTokens,
      contextTokens: inputTokens + cacheReadTokens + cacheCreationTokens,
    },
  ];
}

/** Partial-message wrappers: only the start (earliest usage) and end of a response matter here. */
function parseStreamEvent(record: JsonRecord, state: StreamParseState): AgentEvent[] {
  const event = recordField(record, 'event');
  if (event === undefined || parentOf(record) !== undefined) return [];
  if (event.type === 'message_start') {
    state.responseOpen = true;
    const message = recordField(event, 'message');
    return message === undefined ? [] : usageEvent(stringField(message, 'id'), message, state);
  }
  if (event.type === 'message_delta') {
    // The response's final output count (cumulative; one message_delta per response).
    const usage = recordField(event, 'usage');
    const outputTokens = usage === undefined ? undefined : numberField(usage, 'output_tokens');
    state.streamTokens.output += outputTokens ?? 0;
    if (outputTokens !== undefined) return [{ type: 'output_usage', outputTokens }];
  }
  if (event.type === 'message_stop') state.responseOpen = false;
  return [];
}

function parseAssistant(record: JsonRecord, state: StreamParseState): AgentEvent[] | undefined {
  const message = recordField(record, 'message');
  if (message === undefined) return undefined;
  const content = arrayField(message, 'content') ?? [];
  const error = record.error;
  if (error !== undefined && error !== null) {
    // The CLI gave up on the API and says so in a message of its own making.
    state.responseOpen = false;
    const errorType = typeof error === 'string' ? error : 'unknown';
    return [{ type: 'api_error', errorType, text: contentText(content) }];
  }
  const messageId = stringField(message, 'id');
  const parent = parentOf(record);
  const events: AgentEvent[] = parent === undefined ? usageEvent(messageId, message, state) : [];
  const withParent = parent === undefined ? {} : { parentToolUseId: parent };
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text') {
      const text = stringField(block, 'text') ?? '';
      if (text !== '') events.push({ type: 'assistant_text', messageId: messageId ?? '', text, ...withParent });
    } else if (block.type === 'tool_use') {
      const toolUseId = stringField(block, 'id');
      if (toolUseId === undefined || state.seenToolUseIds.has(toolUseId)) continue;
      state.seenToolUseIds.add(toolUseId);
      state.pendingToolUseIds.add(toolUseId);
      const name = stringField(block, 'name') ?? 'unknown';
      const input = block.input;
      const summary = summarizeToolUse(name, input, state.cwd, state.redact);
      events.push({ type: 'tool_start', messageId: messageId ?? '', toolUseId, name, input, summary, ...withParent });
    }
  }
  return events;
}

function parseUser(record: JsonRecord, state: StreamParseState): AgentEvent[] {
  const message = recordField(record, 'message');
  const content = message === undefined ? undefined : arrayField(message, 'content');
  if (content === undefined) return [];
  const parent = parentOf(record);
  const events: AgentEvent[] = [];
  for (const block of content) {
    if (!isRecord(block) || block.type !== 'tool_result') continue;
    const toolUseId = stringField(block, 'tool_use_id');
    if (toolUseId === undefined) continue;
    state.pendingToolUseIds.delete(toolUseId);
    events.push({
      type: 'tool_result',
      toolUseId,
      isError: block.is_error === true,
      text: contentText(block.content),
      ...(parent === undefined ? {} : { parentToolUseId: parent }),
    });
  }
  return events;
}

function parseSystem(record: JsonRecord, state: StreamParseState): AgentEvent[] {
  switch (record.subtype) {
    case 'init': {
      const model = stringField(record, 'model') ?? '';
      const cwd = stringField(record, 'cwd');
      const version = stringField(record, 'claude_code_version');
      state.model = model || undefined;
      state.cwd = cwd;
      const tools = (arrayField(record, 'tools') ?? []).filter((tool): tool is string => typeof tool === 'string');
      return [
        {
          type: 'init',
          sessionId: stringField(record, 'session_id') ?? '',
          model,
          ...(cwd === undefined ? {} : { cwd }),
          ...(version === undefined ? {} : { version }),
          tools,
        },
      ];
    }
    case 'status':
      if (record.status === 'requesting') {
        state.responseOpen = false;
        return [{ type: 'request_started' }];
      }
      return record.status === 'compacting' ? [{ type: 'compaction', stage: 'started' }] : [];
    case 'api_retry': {
      state.responseOpen = false;
      const status = numberField(record, 'error_status');
      return [
        {
          type: 'api_retry',
          attempt: numberField(record, 'attempt') ?? 0,
          maxRetries: numberField(record, 'max_retries') ?? 0,
          delayMs: numberField(record, 'retry_delay_ms') ?? 0,
          errorStatus: status ?? null,
        },
      ];
    }
    case 'model_fallback': {
      const from = stringField(record, 'original_model');
      const to = stringField(record, 'fallback_model');
      return [{ type: 'model_fallback', ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }];
    }
    case 'compact_boundary': {
      const meta = recordField(record, 'compact_metadata');
      const preTokens = meta === undefined ? undefined : numberField(meta, 'pre_tokens');
      const postTokens = meta === undefined ? undefined : numberField(meta, 'post_tokens');
      return [
        {
          type: 'compaction',
          stage: 'boundary',
          ...(preTokens === undefined ? {} : { preTokens }),
          ...(postTokens === undefined ? {} : { postTokens }),
        },
      ];
    }
    default:
      // Hook, task and notification events: known, and nothing the runner acts on.
      return [];
  }
}

function resultContextWindow(record: JsonRecord, state: StreamParseState): number | undefined {
  const modelUsage = recordField(record, 'modelUsage');
  if (modelUsage === undefined) return undefined;
  const windowOf = (name: string | undefined): number | undefined => {
    const entry = name === undefined ? undefined : recordField(modelUsage, name);
    return entry === undefined ? undefined : numberField(entry, 'contextWindow');
  };
  const own = windowOf(state.model) ?? windowOf(state.usageModel);
  if (own !== undefined) return own;
  let largest: number | undefined;
  for (const name of Object.keys(modelUsage)) {
    const window = windowOf(name);
    if (window !== undefined && (largest === undefined || window > largest)) largest = window;
  }
  return largest;
}

function parseResult(record: JsonRecord, state: StreamParseState): ResultEvent {
  const usage = recordField(record, 'usage');
  const terminalReason = stringField(record, 'terminal_reason');
  const status = record.api_error_status;
  const apiErrorStatus = typeof status === 'number' ? status : status === null ? null : undefined;
  const text = stringField(record, 'result');
  const sessionId = stringField(record, 'session_id');
  const contextWindow = resultContextWindow(record, state);
  const numTurns = numberField(record, 'num_turns');
  const durationMs = numberField(record, 'duration_ms');
  const permissionDenials = permissionDenialsOf(record);
  return {
    type: 'result',
    subtype: stringField(record, 'subtype') ?? '',
    isError: record.is_error === true,
    ...(terminalReason === undefined ? {} : { terminalReason }),
    ...(apiErrorStatus === undefined ? {} : { apiErrorStatus }),
    ...(text === undefined ? {} : { text }),
    ...(sessionId === undefined ? {} : { sessionId }),
    costUsd: numberField(record, 'total_cost_usd') ?? 0,
    inputTokens: usage === undefined ? 0 : (numberField(usage, 'input_tokens') ?? 0),
    outputTokens: usage === undefined ? 0 : (numberField(usage, 'output_tokens') ?? 0),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(numTurns === undefined ? {} : { numTurns }),
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(permissionDenials === undefined ? {} : { permissionDenials }),
  };
}

function permissionDenialsOf(record: JsonRecord): PermissionDenial[] | undefined {
  const list = arrayField(record, 'permission_denials');
  if (list === undefined) return undefined;
  const denials: PermissionDenial[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const toolUseId = stringField(item, 'tool_use_id');
    denials.push({ toolName: stringField(item, 'tool_name') ?? 'unknown', ...(toolUseId === undefined ? {} : { toolUseId }), input: item.tool_input });
  }
  return denials;
}
