/**
 * Projects the size of the next API request from the session's events and reports, once, when it
 * crosses the limit. The projection is what the API last reported for the main agent (input +
 * cache read + cache creation of the last message) plus a calibrated count of what entered the
 * context since: the model's own output of that turn (its exact final `output_tokens` once the
 * response ended, until then its text and tool calls counted), the tool results, and one round
 * trip's fixed overhead. debussy counts text with cl100k; Claude's tokenizer differs, so the
 * count is scaled by a per-model factor that starts from a measured prior and is refined by every
 * pair of consecutive reports (token-calibration.ts). The projection that decides a stop and the
 * one displayed count exactly; a pair that teaches the calibration is counted with bounded work
 * (pending-count.ts), and pairs that nothing counted before their report are learned from only
 * while that work stays within a budget, so a stream replayed at full speed does not tokenize
 * everything it carries.
 * It reports; the caller decides what to do (stop, or only record in one-shot mode).
 */
import type { AgentEvent } from '../agent/agent-events.js';
import { contextWindowFor } from './context-window.js';
import { effectiveLimit, type ContextLimit } from './context-limit.js';
import type { ContextFigures, ThresholdCrossed } from './context-figures.js';
import { TokenCalibration } from './token-calibration.js';
import { CountingBudget, PendingCount, TokenRate } from './pending-count.js';

/** The monitor's full figures: the shared ones (context-figures.ts) and how it arrived at them. */
export interface ContextSnapshot extends ContextFigures {
  /** What the API last reported for the main agent; usedTokens adds projectedExtraTokens to it. */
  reportedTokens: number;
  projectedExtraTokens: number;
  peakTokens: number;
  peakPercent: number;
  /** Main-agent API responses seen (distinct message ids). */
  turns: number;
}

/** A crossing as the monitor reports it: its snapshot at that moment and the threshold crossed. */
export interface ContextCrossing extends ContextSnapshot, ThresholdCrossed {}

export interface ContextMonitorOptions {
  /** 100 or more: the percentage never stops a session (max_context_tokens still may). */
  thresholdPercent: number;
  /** 0 or less: never report a tool-call crossing. */
  toolCallThreshold: number;
  /** max_context_tokens: an absolute cap beside the percentage; undefined: none. */
  maxContextTokens?: number;
  contextWindowOverride?: number;
  /** The window the attempt started with (a resumed session keeps it); the override still wins. */
  inheritedContextWindow?: number;
  /** Shared across the sessions of a run so a model's calibration carries over; fresh if absent. */
  calibration?: TokenCalibration;
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

type WindowSource = 'override' | 'inherited' | 'model' | 'result';

/** Kinds of content counted apart besides tool names: each has its own measured bytes per token. */
const TEXT_KIND = 'text';
const OUTPUT_KIND = 'output';

export class ContextMonitor {
  private readonly options: ContextMonitorOptions;
  private readonly calibration: TokenCalibration;
  private window: number | undefined;
  private windowSource: WindowSource | undefined;
  /** Model of the last report (the API's name), else the init model: whose calibration applies. */
  private model: string | undefined;
  private reported = 0;
  private hasReport = false;
  /** A compaction since the last report: the next report is no growth sample. */
  private discontinuity = false;
  /** The current response's text and tool calls, counted in cl100k until its output_tokens arrive. */
  private readonly output = new PendingCount();
  private exactOutput: number | undefined;
  /** Everything else that entered since the last report, by kind: a tool's name for its results, 'text'. */
  private readonly entered = new Map<string, PendingCount>();
  /** Each kind's cl100k tokens per byte, measured from what was counted: extrapolates the rest of a big pair. */
  private readonly rates = new Map<string, TokenRate>();
  /** Bounds the tokenizing of pairs nothing counted before their report (pending-count.ts). */
  private readonly countingBudget = new CountingBudget();
  private toolCalls = 0;
  private turns = 0;
  private peak = 0;
  private fired = false;
  private readonly toolNames = new Map<string, string>();

  constructor(options: ContextMonitorOptions) {
    this.options = options;
    this.calibration = options.calibration ?? new TokenCalibration();
    const override = contextWindowFor(undefined, options.contextWindowOverride);
    const inherited = contextWindowFor(undefined, options.inheritedContextWindow);
    if (override !== undefined) this.setWindow(override, 'override');
    else if (inherited !== undefined) this.setWindow(inherited, 'inherited');
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'init':
        this.learnWindow(event.model);
        this.model ??= event.model;
        return;
      case 'usage':
        this.turns += 1;
        this.learnWindow(event.model);
        this.report(event.model, event.contextTokens);
        break;
      case 'output_usage':
        this.exactOutput = event.outputTokens;
        break;
      case 'assistant_text':
        if (event.parentToolUseId !== undefined) return;
        this.output.add(event.text);
        break;
      case 'tool_start':
        if (event.parentToolUseId !== undefined) return;
        this.toolCalls += 1;
        this.toolNames.set(event.toolUseId, event.name);
        this.output.add(event.name);
        this.output.add(JSON.stringify(event.input ?? {}));
        break;
      case 'tool_result': {
        if (event.parentToolUseId !== undefined) return;
        const name = this.toolNames.get(event.toolUseId);
        this.toolNames.delete(event.toolUseId);
        this.enter(name ?? 'tool', modelVisibleResult(name, event.text));
        break;
      }
      case 'compaction':
        if (event.stage !== 'boundary') return;
        if (event.postTokens !== undefined) this.resetTo(event.postTokens);
        this.discontinuity = true;
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

  /** Text that entered the context outside the stream's events (a transcript's user messages). */
  enterText(text: string): void {
    this.enter(TEXT_KIND, text);
    this.check();
  }

  snapshot(): ContextSnapshot {
    const usedTokens = this.reported + this.extra(true);
    this.peak = Math.max(this.peak, usedTokens);
    return {
      usedTokens,
      reportedTokens: this.reported,
      projectedExtraTokens: usedTokens - this.reported,
      contextWindow: this.window,
      percent: this.percentOf(usedTokens),
      ...optionalLimit(this.limit()),
      toolCalls: this.toolCalls,
      peakTokens: this.peak,
      peakPercent: this.percentOf(this.peak),
      turns: this.turns,
    };
  }

  /** The calibration this monitor learns into (for `debussy replay`'s figures). */
  get tokenCalibration(): TokenCalibration {
    return this.calibration;
  }

  private limit(): ContextLimit | undefined {
    return effectiveLimit({ window: this.window, thresholdPercent: this.options.thresholdPercent, maxContextTokens: this.options.maxContextTokens });
  }

  /**
   * The calibrated tokens the next request adds to the last report. `exact` counts what waits;
   * otherwise the byte bound stands in for it (an upper bound, cheap).
   */
  private extra(exact: boolean): number {
    if (!this.hasReport) return 0;
    const count = (pending: PendingCount) => (exact ? pending.count() : pending.bound());
    let counted = this.exactOutput === undefined ? count(this.output) : 0;
    for (const pending of this.entered.values()) counted += count(pending);
    return Math.round((this.exactOutput ?? 0) + this.calibration.factorFor(this.model) * counted + this.calibration.overheadFor(this.model));
  }

  private percentOf(tokens: number): number {
    return this.window === undefined || this.window <= 0 ? 0 : (tokens / this.window) * 100;
  }

  private setWindow(window: number, source: WindowSource): void {
    this.window = window;
    this.windowSource = source;
  }

  /** The init model names the CLI's variant (`[1m]`); usage models are the API's plain names. */
  private learnWindow(model: string): void {
    if (this.windowSource !== undefined) return;
    const window = contextWindowFor(model);
    if (window !== undefined) this.setWindow(window, 'model');
  }

  /** A new report: what entered since the last one, against how much it grew, teaches the calibration. */
  private report(model: string, contextTokens: number): void {
    const previousModel = this.model;
    if (this.hasReport && !this.discontinuity && previousModel === model && this.countingBudget.allows(this.uncountedBytes())) {
      // Bounded work per pair: exact up to a byte budget per kind, estimated beyond (pending-count.ts).
      let counted = this.exactOutput === undefined ? this.output.estimate(this.rateOf(OUTPUT_KIND), this.countingBudget) : 0;
      for (const [kind, pending] of this.entered) counted += pending.estimate(this.rateOf(kind), this.countingBudget);
      this.calibration.learn(model, { countedTokens: counted, outputTokens: this.exactOutput ?? 0, calls: 1, growth: contextTokens - this.reported });
    }
    this.model = model || previousModel;
    this.resetTo(contextTokens);
    this.hasReport = true;
    this.discontinuity = false;
  }

  /** What waits uncounted for the pair that a report closes (the output only when its exact count is unknown). */
  private uncountedBytes(): number {
    let bytes = this.exactOutput === undefined ? this.output.uncountedBytes : 0;
    for (const pending of this.entered.values()) bytes += pending.uncountedBytes;
    return bytes;
  }

  private resetTo(reported: number): void {
    this.reported = reported;
    this.output.clear();
    this.entered.clear();
    this.exactOutput = undefined;
    this.peak = Math.max(this.peak, reported);
  }

  private rateOf(kind: string): TokenRate {
    let rate = this.rates.get(kind);
    if (rate === undefined) {
      rate = new TokenRate();
      this.rates.set(kind, rate);
    }
    return rate;
  }

  private enter(kind: string, text: string): void {
    let pending = this.entered.get(kind);
    if (pending === undefined) {
      pending = new PendingCount();
      this.entered.set(kind, pending);
    }
    pending.add(text);
  }

  private check(): void {
    if (this.fired) return;
    const limit = this.limit();
    if (limit !== undefined) {
      // Tokenizing is the costly part: only count when even the byte bound could reach the limit.
      if (this.reported + this.extra(false) >= limit.tokens && this.reported + this.extra(true) >= limit.tokens) return this.fire('context');
    }
    const { toolCallThreshold } = this.options;
    if (toolCallThreshold > 0 && this.toolCalls >= toolCallThreshold) this.fire('tool_calls');
  }

  private fire(trigger: ContextCrossing['trigger']): void {
    this.fired = true;
    const threshold = trigger === 'context' ? this.options.thresholdPercent : this.options.toolCallThreshold;
    this.options.onLimit({ ...this.snapshot(), trigger, threshold });
  }
}

function optionalLimit(limit: ContextLimit | undefined): { limit?: ContextLimit } {
  return limit === undefined ? {} : { limit };
}

/** What of a tool result the model actually gets to see. */
function modelVisibleResult(toolName: string | undefined, text: string): string {
  if (toolName !== 'Bash' || text.length <= BASH_OUTPUT_LIMIT_CHARS) return text;
  return BASH_PREVIEW_FRAME + text.slice(0, BASH_PREVIEW_CHARS);
}
