/**
 * Projects the size of the next API request from the session's events and reports, once, when it
 * crosses the threshold. The projection is what the API last reported for the main agent (input +
 * cache read + cache creation of the last message) plus everything that entered the context since:
 * the model's own text and tool calls of that turn, and the tool results. It reports; the caller
 * decides what to do (stop, or only record in one-shot mode).
 */
import type { AgentEvent } from '../agent/agent-events.js';
import { contextWindowFor } from './context-window.js';
import { estimateTokens } from '../tokenizer/index.js';

export interface ContextSnapshot {
  /** Projection of the next request: reportedTokens + projectedExtraTokens. */
  usedTokens: number;
  reportedTokens: number;
  projectedExtraTokens: number;
  contextWindow: number | undefined;
  /** usedTokens / contextWindow * 100; 0 while the window is unknown. */
  percent: number;
  toolCalls: number;
  peakTokens: number;
  peakPercent: number;
  /** Main-agent API responses seen (distinct message ids). */
  turns: number;
}

export interface ContextCrossing extends ContextSnapshot {
  trigger: 'context' | 'tool_calls';
  thresholdPercent: number;
  toolCallThreshold: number;
}

export interface ContextMonitorOptions {
  /** 100 or more: never report a context crossing. */
  thresholdPercent: number;
  /** 0 or less: never report a tool-call crossing. */
  toolCallThreshold: number;
  contextWindowOverride?: number;
  onLimit: (crossing: ContextCrossing) => void;
}

// The CLI keeps a Bash output over ~30,000 characters out of the context and shows the model a
// ~2 KB preview instead. The stream already carries the preview (measured with 2.1.197); this
// guards against a version that puts the full output in the event.
const BASH_OUTPUT_LIMIT_CHARS = 30_000;
const BASH_PREVIEW_CHARS = 2_048;
const BASH_PREVIEW_FRAME =
  '<persisted-output>\nOutput too large (99.9KB). Full output saved to: /root/.claude/projects/-work-project/' +
  '00000000-0000-0000-0000-000000000000/tool-results/b0000000.txt\n\nPreview (first 2KB):\n\n...\n</persisted-output>';

type WindowSource = 'override' | 'model' | 'result';

export class ContextMonitor {
  private readonly options: ContextMonitorOptions;
  private window: number | undefined;
  private windowSource: WindowSource | undefined;
  private reported = 0;
  private countedExtra = 0;
  /** Texts that entered the context since the last report and are not counted yet. */
  private uncounted: string[] = [];
  /** UTF-8 bytes of `uncounted`: a token never covers less than a byte, so a hard upper bound. */
  private uncountedBytes = 0;
  private toolCalls = 0;
  private turns = 0;
  private peak = 0;
  private fired = false;
  private readonly toolNames = new Map<string, string>();

  constructor(options: ContextMonitorOptions) {
    this.options = options;
    const override = contextWindowFor(undefined, options.contextWindowOverride);
    if (override !== undefined) this.setWindow(override, 'override');
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'init':
        this.learnModel(event.model);
        return;
      case 'usage':
        this.turns += 1;
        this.learnModel(event.model);
        this.resetTo(event.contextTokens);
        break;
      case 'assistant_text':
        if (event.parentToolUseId !== undefined) return;
        this.enter(event.text);
        break;
      case 'tool_start':
        if (event.parentToolUseId !== undefined) return;
        this.toolCalls += 1;
        this.toolNames.set(event.toolUseId, event.name);
        this.enter(event.name);
        this.enter(JSON.stringify(event.input ?? {}));
        break;
      case 'tool_result': {
        if (event.parentToolUseId !== undefined) return;
        const name = this.toolNames.get(event.toolUseId);
        this.toolNames.delete(event.toolUseId);
        this.enter(modelVisibleResult(name, event.text));
        break;
      }
      case 'compaction':
        if (event.stage === 'boundary' && event.postTokens !== undefined) this.resetTo(event.postTokens);
        return;
      case 'model_fallback':
        if (event.to !== undefined && this.windowSource !== 'override') {
          const window = contextWindowFor(event.to);
          if (window !== undefined) this.setWindow(window, 'model');
        }
        return;
      case 'result':
        // Last resort: the window stated at the end. No check: no request follows a result.
        if (this.window === undefined && event.contextWindow !== undefined) this.setWindow(event.contextWindow, 'result');
        return;
      default:
        return;
    }
    this.check();
  }

  snapshot(): ContextSnapshot {
    this.countUncounted();
    const usedTokens = this.reported + this.countedExtra;
    this.peak = Math.max(this.peak, usedTokens);
    return {
      usedTokens,
      reportedTokens: this.reported,
      projectedExtraTokens: this.countedExtra,
      contextWindow: this.window,
      percent: this.percentOf(usedTokens),
      toolCalls: this.toolCalls,
      peakTokens: this.peak,
      peakPercent: this.percentOf(this.peak),
      turns: this.turns,
    };
  }

  private percentOf(tokens: number): number {
    return this.window === undefined || this.window <= 0 ? 0 : (tokens / this.window) * 100;
  }

  private setWindow(window: number, source: WindowSource): void {
    this.window = window;
    this.windowSource = source;
  }

  /** The init model names the CLI's variant (`[1m]`); usage models are the API's plain names. */
  private learnModel(model: string): void {
    if (this.windowSource !== undefined) return;
    const window = contextWindowFor(model);
    if (window !== undefined) this.setWindow(window, 'model');
  }

  private resetTo(reported: number): void {
    this.reported = reported;
    this.countedExtra = 0;
    this.uncounted = [];
    this.uncountedBytes = 0;
    this.peak = Math.max(this.peak, reported);
  }

  private enter(text: string): void {
    if (text === '') return;
    this.uncounted.push(text);
    this.uncountedBytes += Buffer.byteLength(text, 'utf8');
  }

  private countUncounted(): void {
    for (const text of this.uncounted) this.countedExtra += estimateTokens(text);
    this.uncounted = [];
    this.uncountedBytes = 0;
  }

  private check(): void {
    if (this.fired) return;
    const { thresholdPercent, toolCallThreshold } = this.options;
    if (this.window !== undefined && thresholdPercent < 100) {
      const limit = (this.window * thresholdPercent) / 100;
      // Tokenizing is the costly part: only count when even the byte bound could reach the limit.
      if (this.reported + this.countedExtra + this.uncountedBytes >= limit) {
        this.countUncounted();
        if (this.reported + this.countedExtra >= limit) return this.fire('context');
      }
    }
    if (toolCallThreshold > 0 && this.toolCalls >= toolCallThreshold) this.fire('tool_calls');
  }

  private fire(trigger: ContextCrossing['trigger']): void {
    this.fired = true;
    const { thresholdPercent, toolCallThreshold } = this.options;
    this.options.onLimit({ ...this.snapshot(), trigger, thresholdPercent, toolCallThreshold });
  }
}

/** What of a tool result the model actually gets to see. */
function modelVisibleResult(toolName: string | undefined, text: string): string {
  if (toolName !== 'Bash' || text.length <= BASH_OUTPUT_LIMIT_CHARS) return text;
  return BASH_PREVIEW_FRAME + text.slice(0, BASH_PREVIEW_CHARS);
}
