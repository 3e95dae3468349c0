/**
 * Reads gemini's chat file, where the calls' usage is: gemini 0.61.0 appends JSON lines to
 * `<gemini home>/tmp/<project>/chats/session-<time>-<first 8 of the session id>.jsonl` as the
 * session runs (test/harness/gemini-chat-file.test.ts): a header {sessionId, projectHash, startTime},
 * `{"$set": ...}` updates, and messages {id, type: user|gemini, content, tokens?, model?, toolCalls?}.
 * A `gemini` message is written when its response has streamed, with
 * tokens {input, output, cached, thoughts, tool, total} (input includes cached), and written again
 * under the same id once its tools have run. Pure, but for finding the file.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../agent-events.js';
import { callEvents, type CallTotals } from '../call-usage.js';
import { isRecord, numberField, recordField, stringField } from '../json-fields.js';

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
