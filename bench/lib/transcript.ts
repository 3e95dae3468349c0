/**
 * Generates a long `claude -p --output-format stream-json --verbose --include-partial-messages`
 * transcript for the throughput and memory figures. Every line is a clone of a line the real CLI
 * printed (test/fixtures/streams/2.1.332/multi-tool-session.ndjson) with new ids, usage and content:
 * request starts, partial-message wrappers with text and tool-input deltas, one assistant event
 * per block, tool results of Read / Bash / Edit / Write with their `tool_use_result` copies, and a
 * result at the end. Tool outputs are real code and docs (see corpus.ts). Seeded: reproducible.
 */
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCorpus, PROJECT_ROOT, seededRandom, sliceLines, type Corpus } from './corpus.js';

type Line = Record<string, unknown>;

const FIXTURE = path.join(PROJECT_ROOT, 'test/fixtures/streams/2.1.332/multi-tool-session.ndjson');
const CWD = '/tmp/debussy-repo-bench';
const MODEL = 'claude-sonnet-4-5';
const FLUSH_BYTES = 1 << 20;

interface Templates {
  init: Line;
  requesting: Line;
  messageStart: Line;
  blockStart: Line;
  blockDelta: Line;
  blockStop: Line;
  messageDelta: Line;
  messageStop: Line;
  assistant: Line;
  user: Line;
  result: Line;
}

function loadTemplates(): Templates {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
  const find = (what: string, test: (line: Line, event: Line) => boolean): Line => {
    const hit = lines.find((line) => test(line, (line.event ?? {}) as Line));
    if (!hit) throw new Error(`bench: no ${what} line in ${FIXTURE}`);
    return hit;
  };
  const streamEvent = (type: string) => find(type, (l, e) => l.type === 'stream_event' && e.type === type);
  return {
    init: find('init', (l) => l.type === 'system' && l.subtype === 'init'),
    requesting: find('requesting', (l) => l.type === 'system' && l.status === 'requesting'),
    messageStart: streamEvent('message_start'),
    blockStart: streamEvent('content_block_start'),
    blockDelta: streamEvent('content_block_delta'),
    blockStop: streamEvent('content_block_stop'),
    messageDelta: streamEvent('message_delta'),
    messageStop: streamEvent('message_stop'),
    assistant: find('assistant', (l) => l.type === 'assistant'),
    user: find('user', (l) => l.type === 'user'),
    result: find('result', (l) => l.type === 'result'),
  };
}

export interface TranscriptStats {
  bytes: number;
  lines: number;
  turns: number;
  toolResults: number;
  /** Characters of tool output (model-visible content) in the transcript. */
  toolOutputChars: number;
}

interface Block {
  /** The content block as the assistant event carries it. */
  block: Line;
  /** What the partial-message deltas stream for it. */
  delta: { type: 'text_delta'; text: string } | { type: 'input_json_delta'; json: string };
}

interface ToolCall {
  id: string;
  name: string;
  input: Line;
  resultText: string;
  toolUseResult: unknown;
}

class TranscriptWriter {
  private readonly t = loadTemplates();
  private readonly random: () => number;
  private readonly corpus: Corpus;
  private readonly sessionId: string;
  private turn = 0;
  readonly stats: TranscriptStats = { bytes: 0, lines: 0, turns: 0, toolResults: 0, toolOutputChars: 0 };

  constructor(seed: number) {
    this.random = seededRandom(seed);
    this.corpus = loadCorpus();
    this.sessionId = this.uuid();
  }

  private uuid(): string {
    const hex = () => Math.floor(this.random() * 0x100000000).toString(16).padStart(8, '0');
    const h = hex() + hex() + hex() + hex();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  private between(min: number, max: number): number {
    return Math.floor(min + this.random() * (max - min));
  }

  /** Sizes spread like real tool outputs: mostly small, a long tail of large ones. */
  private skewed(min: number, max: number): number {
    return Math.floor(min * (max / min) ** (this.random() ** 1.5));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private code(chars: number): string {
    return sliceLines(this.corpus.text, chars, this.random);
  }

  private filePath(): string {
    return `${CWD}/${this.pick(this.corpus.paths)}`;
  }

  private clone(template: Line, fields: Line): Line {
    return { ...structuredClone(template), ...fields };
  }

  private streamEvent(template: Line, event: Line): Line {
    return this.clone(template, { event, session_id: this.sessionId, parent_tool_use_id: null, uuid: this.uuid() });
  }

  private toolCall(turn: number, index: number): ToolCall {
    const id = `toolu_bench_${turn}_${index}`;
    const file = this.filePath();
    const kind = this.random();
    if (kind < 0.35) {
      const content = this.code(this.skewed(2_000, 100_000));
      const numbered = content.split('\n').map((line, i) => `${i + 1}\t${line}`).join('\n');
      const lines = content.split('\n').length;
      return { id, name: 'Read', input: { file_path: file }, resultText: numbered, toolUseResult: { type: 'text', file: { filePath: file, content, numLines: lines, startLine: 1, totalLines: lines } } };
    }
    if (kind < 0.7) {
      const command = this.pick(['npm test', 'npx tsc --noEmit', 'git diff', 'grep -rn "export" src', 'ls -la src test', 'npx vitest run test/agent']);
      const huge = this.random() < 0.1;
      const stdout = huge ? this.code(this.between(30_000, 120_000)) : this.code(this.skewed(200, 30_000));
      // The CLI keeps an output over ~30,000 characters out of the context and shows a preview.
      const shown = huge
        ? `<persisted-output>\nOutput too large (${(stdout.length / 1024).toFixed(1)}KB). Full output saved to: /root/.claude/projects/-tmp-debussy-repo-bench/${this.sessionId}/tool-results/b${turn}.txt\n\nPreview (first 2KB):\n${stdout.slice(0, 2048)}\n...\n</persisted-output>`
        : stdout;
      return { id, name: 'Bash', input: { command, description: `Run ${command}` }, resultText: shown, toolUseResult: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } };
    }
    if (kind < 0.85) {
      const original = this.code(this.skewed(3_000, 40_000));
      const oldString = original.slice(0, Math.min(original.length, this.between(100, 1_500)));
      const newString = this.code(oldString.length + 200);
      return {
        id, name: 'Edit', input: { file_path: file, old_string: oldString, new_string: newString, replace_all: false },
        resultText: `The file ${file} has been updated successfully.`,
        toolUseResult: { filePath: file, oldString, newString, originalFile: original, structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: newString.split('\n').slice(0, 8) }], userModified: false, replaceAll: false },
      };
    }
    const content = this.code(this.skewed(1_000, 20_000));
    return {
      id, name: 'Write', input: { file_path: file, content },
      resultText: `File created successfully at: ${file} (file state is current in your context — no need to Read it back)`,
      toolUseResult: { type: 'create', filePath: file, content, structuredPatch: [], originalFile: null, userModified: false },
    };
  }

  /** Chunks like the API's deltas: tens to a few hundred characters each. */
  private chunks(text: string): string[] {
    const parts: string[] = [];
    for (let at = 0; at < text.length; ) {
      const size = this.between(32, 256);
      parts.push(text.slice(at, at + size));
      at += size;
    }
    return parts;
  }

  /** The lines of one API round trip: request, streamed response, tool results. */
  turnLines(): Line[] {
    const turn = ++this.turn;
    const messageId = `msg_bench_${turn}`;
    // The context grows with each turn and drops back, as it would across restarts.
    const context = 20_000 + ((turn * 2_917) % 170_000);
    const usage = { input_tokens: this.between(50, 3_000), cache_creation_input_tokens: 1_000, cache_read_input_tokens: context, output_tokens: 1 };
    const blocks: Block[] = [];
    const calls: ToolCall[] = [];
    if (this.random() < 0.6) {
      const text = sliceLines(this.corpus.prose, this.between(20, 600), this.random);
      blocks.push({ block: { type: 'text', text }, delta: { type: 'text_delta', text } });
    }
    const toolCount = this.random() < 0.1 ? 0 : this.random() < 0.78 ? 1 : 2;
    for (let i = 0; i < toolCount; i++) {
      const call = this.toolCall(turn, i);
      calls.push(call);
      blocks.push({ block: { type: 'tool_use', id: call.id, name: call.name, input: call.input }, delta: { type: 'input_json_delta', json: JSON.stringify(call.input) } });
    }

    const out: Line[] = [this.clone(this.t.requesting, { uuid: this.uuid(), session_id: this.sessionId })];
    const message = { id: messageId, type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage };
    out.push(this.streamEvent(this.t.messageStart, { type: 'message_start', message }));
    blocks.forEach(({ block, delta }, index) => {
      const startBlock = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
      out.push(this.streamEvent(this.t.blockStart, { type: 'content_block_start', index, content_block: startBlock }));
      const streamed = delta.type === 'text_delta' ? delta.text : delta.json;
      for (const part of this.chunks(streamed)) {
        const d = delta.type === 'text_delta' ? { type: 'text_delta', text: part } : { type: 'input_json_delta', partial_json: part };
        out.push(this.streamEvent(this.t.blockDelta, { type: 'content_block_delta', index, delta: d }));
      }
      out.push(this.clone(this.t.assistant, {
        message: { ...message, content: [block], context_management: null },
        parent_tool_use_id: null, session_id: this.sessionId, uuid: this.uuid(),
      }));
      out.push(this.streamEvent(this.t.blockStop, { type: 'content_block_stop', index }));
    });
    out.push(this.streamEvent(this.t.messageDelta, { type: 'message_delta', delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: this.between(20, 2_000) } }));
    out.push(this.streamEvent(this.t.messageStop, { type: 'message_stop' }));
    for (const call of calls) {
      out.push(this.clone(this.t.user, {
        message: { role: 'user', content: [{ tool_use_id: call.id, type: 'tool_result', content: call.resultText, is_error: false }] },
        parent_tool_use_id: null, session_id: this.sessionId, uuid: this.uuid(), timestamp: new Date(Date.UTC(2026, 10, 21) + turn * 1_000).toISOString(),
        tool_use_result: call.toolUseResult,
      }));
      this.stats.toolResults += 1;
      this.stats.toolOutputChars += call.resultText.length;
    }
    this.stats.turns = turn;
    return out;
  }

  initLine(): Line {
    return this.clone(this.t.init, { cwd: CWD, session_id: this.sessionId, model: MODEL, uuid: this.uuid() });
  }

  resultLine(): Line {
    return this.clone(this.t.result, { session_id: this.sessionId, num_turns: this.turn, result: 'Done.', uuid: this.uuid(), modelUsage: { [MODEL]: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 0, costUSD: 0, contextWindow: 200_000, maxOutputTokens: 64_000 } } });
  }
}

/** Writes a transcript of at least `targetBytes` to `file`, streaming (memory stays small). */
export async function writeTranscript(file: string, targetBytes: number, seed = 7): Promise<TranscriptStats> {
  const writer = new TranscriptWriter(seed);
  const out = createWriteStream(file);
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    pendingBytes = 0;
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const add = async (line: Line) => {
    const text = `${JSON.stringify(line)}\n`;
    pending.push(text);
    pendingBytes += text.length;
    writer.stats.bytes += Buffer.byteLength(text);
    writer.stats.lines += 1;
    if (pendingBytes >= FLUSH_BYTES) await flush();
  };
  await add(writer.initLine());
  while (writer.stats.bytes < targetBytes) {
    for (const line of writer.turnLines()) await add(line);
  }
  await add(writer.resultLine());
  await flush();
  out.end();
  await once(out, 'close');
  return writer.stats;
}
