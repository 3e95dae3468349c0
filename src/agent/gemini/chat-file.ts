/**
 * Reads gemini's chat file, where the calls' usage is: gemini 0.61.0 appends JSON lines to
 * `<gemini home>/tmp/<project>/chats/session-<time>-<first 8 of the session id>.jsonl` as the
 * session runs (test/harness/gemini-chat-file.test.ts): a header {sessionId, projectHash, startTime},
 * `{"$set": ...}` updates, and messages {id, type: user|gemini, content, tokens?, model?, toolCalls?}.
 * A `gemini` message is written when its response has streamed, with
 * tokens {input, output, cached, thoughts, tool, total} (input includes cached), and written again
 * under the same id once its tools have run. Pure, but for finding the file. The live session takes
 * each call's usage from it; `debussy replay` reads a whole file (chatReplayEvents).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../agent-events.js';
import { callEvents, type CallTotals } from '../call-usage.js';
import { isRecord, numberField, recordField, stringField } from '../json-fields.js';
import { summarizeToolUse } from '../tool-summary.js';
import { geminiTool } from './gemini-tools.js';

export interface ChatFileState {
  /** Message ids whose usage was taken. */
  seen: Set<string>;
  /** Lines that were not JSON (a line is only read once it ends with a newline). */
  badLines: number;
}

export function newChatFileState(): ChatFileState {
  return { seen: new Set(), badLines: 0 };
}

/** The usage of one chat-file line: a `gemini` message seen for the first time, with its tokens. */
export function chatLineEvents(line: string, state: ChatFileState, totals: CallTotals): AgentEvent[] {
  let record: unknown;
  try {
    record = JSON.parse(line) as unknown;
  } catch {
    state.badLines += 1;
    return [];
  }
  if (!isRecord(record) || stringField(record, 'type') !== 'gemini') return [];
  const id = stringField(record, 'id');
  const tokens = recordField(record, 'tokens');
  const input = tokens === undefined ? undefined : numberField(tokens, 'input');
  if (id === undefined || tokens === undefined || input === undefined || state.seen.has(id)) return [];
  state.seen.add(id);
  totals.model = stringField(record, 'model') ?? totals.model;
  // Thinking is billed as output; it does not come back in the next call's prompt.
  const output = (numberField(tokens, 'output') ?? 0) + (numberField(tokens, 'thoughts') ?? 0);
  return callEvents(totals, id, { input, cached: numberField(tokens, 'cached') ?? 0, cacheWrite: 0, output });
}

/** The chat file of a session, once gemini has made it: `<geminiDir>/tmp/<any project>/chats/session-*-<id8>.jsonl`. */
export function findChatFile(geminiDir: string, sessionId: string): string | undefined {
  const suffix = `-${sessionId.slice(0, 8)}.jsonl`;
  const tmp = path.join(geminiDir, 'tmp');
  let projects: string[];
  try {
    projects = readdirSync(tmp);
  } catch {
    return undefined;
  }
  for (const project of projects) {
    const chats = path.join(tmp, project, 'chats');
    let files: string[];
    try {
      files = readdirSync(chats);
    } catch {
      continue;
    }
    const found = files.filter((file) => file.startsWith('session-') && file.endsWith(suffix)).sort().at(-1);
    if (found !== undefined) return path.join(chats, found);
  }
  return undefined;
}

/** What `debussy replay` keeps while it reads a whole chat file. */
export interface ChatReplayState extends ChatFileState {
  totals: CallTotals;
  sessionId: string | undefined;
  initSent: boolean;
  /** Tool calls already reported (a message is written again with its tools' results). */
  toolsSeen: Set<string>;
}

export function newChatReplayState(totals: CallTotals): ChatReplayState {
  return { ...newChatFileState(), totals, sessionId: undefined, initSent: false, toolsSeen: new Set() };
}

/** A chat file begins with its header: {sessionId, projectHash, startTime}. */
export function isChatFileHeader(value: unknown): boolean {
  return isRecord(value) && typeof value.sessionId === 'string' && typeof value.projectHash === 'string';
}

/**
 * One chat-file line as the events the live session would have had: for `debussy replay`. Each
 * response gives its text and usage when first written, its tools and their results when written
 * again with them.
 */
export function chatReplayEvents(line: string, state: ChatReplayState): AgentEvent[] {
  let record: unknown;
  try {
    record = JSON.parse(line) as unknown;
  } catch {
    state.badLines += 1;
    return [];
  }
  if (isChatFileHeader(record)) {
    state.sessionId = stringField(record as Record<string, unknown>, 'sessionId');
    return [];
  }
  if (!isRecord(record) || stringField(record, 'type') !== 'gemini') return [];
  const events: AgentEvent[] = [];
  const id = stringField(record, 'id') ?? '';
  if (!state.seen.has(id)) {
    const model = stringField(record, 'model');
    if (!state.initSent && model !== undefined) {
      state.initSent = true;
      events.push({ type: 'init', sessionId: state.sessionId ?? 'unknown', model, tools: [], agent: 'gemini' });
    }
    const text = stringField(record, 'content') ?? '';
    if (text !== '') events.push({ type: 'assistant_text', messageId: id, text });
    events.push(...chatLineEvents(line, state, state.totals));
  }
  for (const call of Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : []) {
    const callId = stringField(call, 'id') ?? '';
    if (state.toolsSeen.has(callId)) continue;
    state.toolsSeen.add(callId);
    const tool = geminiTool(stringField(call, 'name') ?? 'unknown', call.args);
    events.push({ type: 'tool_start', messageId: id, toolUseId: callId, name: tool.name, input: tool.input, summary: summarizeToolUse(tool.name, tool.input, undefined) });
    events.push({ type: 'tool_result', toolUseId: callId, isError: stringField(call, 'status') === 'error', text: toolOutput(call.result) });
  }
  return events;
}

/** What a tool gave back to the model: its functionResponse's output. */
function toolOutput(result: unknown): string {
  const parts = Array.isArray(result) ? result.filter(isRecord) : [];
  return parts
    .map((part) => {
      const response = recordField(part, 'functionResponse');
      const body = response === undefined ? undefined : recordField(response, 'response');
      const output = body === undefined ? undefined : (stringField(body, 'output') ?? stringField(body, 'error'));
      return output ?? JSON.stringify(body ?? part);
    })
    .join('\n');
}
