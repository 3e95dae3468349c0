/**
 * A running session's spend, from its event stream: the tokens of every main-agent API call
 * priced by the model that answered it, until claude's result gives the exact figure. The session
 * runner asks it after each event whether the budget is crossed; the journal gets its final figure.
 * No I/O.
 */
import type { AgentEvent } from '../agent/agent-events.js';
import { estimateCost, NO_TOKENS, type TokenUsage } from './estimate.js';
import type { PriceTable } from './prices.js';

export interface SpendFigure {
  usd: number;
  /** True until claude's result reported the exact total. */
  estimated: boolean;
  /** Set when some tokens were priced as claude's default model (a model not in the table). */
  unknownModel?: string;
  tokens: TokenUsage;
}

/**
 * Each call is priced on its own (a model's long-prompt tier depends on the call's prompt); the
 * calls before the last are summed as they end.
 */
export class SessionSpend {
  private readonly tokens: TokenUsage = { ...NO_TOKENS };
  /** The priced calls before the last one. */
  private earlierUsd = 0;
  private unknownModel: string | undefined;
  private lastCall: { model: string; usage: TokenUsage } | undefined;
  private exactUsd: number | undefined;

  constructor(private readonly prices: PriceTable) {}

  observe(event: AgentEvent): void {
    if (event.type === 'usage') {
      if (this.lastCall !== undefined) this.earlierUsd += this.priced(this.lastCall);
      this.tokens.inputTokens += event.inputTokens;
      this.tokens.cacheReadTokens += event.cacheReadTokens;
      this.tokens.cacheCreationTokens += event.cacheCreationTokens;
      this.lastCall = { model: event.model, usage: { ...NO_TOKENS, inputTokens: event.inputTokens, cacheReadTokens: event.cacheReadTokens, cacheCreationTokens: event.cacheCreationTokens } };
    } else if (event.type === 'output_usage' && this.lastCall !== undefined) {
      this.tokens.outputTokens += event.outputTokens;
      this.lastCall.usage.outputTokens += event.outputTokens;
    } else if (event.type === 'result') {
      this.exactUsd = event.costUsd;
    }
  }

  private priced(call: { model: string; usage: TokenUsage }): number {
    const estimate = estimateCost(call.usage, call.model, this.prices);
    if (!estimate.priceKnown) this.unknownModel ??= call.model;
    return estimate.usd;
  }

  /** What the next turn would cost if it were like the last one; 0 once claude's result ended the session. */
  nextTurnUsd(): number {
    if (this.exactUsd !== undefined || this.lastCall === undefined) return 0;
    return estimateCost(this.lastCall.usage, this.lastCall.model, this.prices).usd;
  }

  figure(): SpendFigure {
    const tokens = { ...this.tokens };
    const usd = this.earlierUsd + (this.lastCall === undefined ? 0 : this.priced(this.lastCall));
    if (this.exactUsd !== undefined) return { usd: this.exactUsd, estimated: false, tokens };
    return { usd, estimated: true, tokens, ...(this.unknownModel === undefined ? {} : { unknownModel: this.unknownModel }) };
  }
}
