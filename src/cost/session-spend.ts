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

export class SessionSpend {
  private readonly byModel = new Map<string, TokenUsage>();
  private lastModel: string | undefined;
  private lastCall: { model: string; usage: TokenUsage } | undefined;
  private exactUsd: number | undefined;

  constructor(private readonly prices: PriceTable) {}

  observe(event: AgentEvent): void {
    if (event.type === 'usage') {
      this.lastModel = event.model;
      const sum = this.byModel.get(event.model) ?? { ...NO_TOKENS };
      sum.inputTokens += event.inputTokens;
      sum.cacheReadTokens += event.cacheReadTokens;
      sum.cacheCreationTokens += event.cacheCreationTokens;
      this.byModel.set(event.model, sum);
      this.lastCall = { model: event.model, usage: { ...NO_TOKENS, inputTokens: event.inputTokens, cacheReadTokens: event.cacheReadTokens, cacheCreationTokens: event.cacheCreationTokens } };
    } else if (event.type === 'output_usage' && this.lastModel !== undefined) {
      const sum = this.byModel.get(this.lastModel);
      if (sum) sum.outputTokens += event.outputTokens;
      if (this.lastCall) this.lastCall.usage.outputTokens += event.outputTokens;
    } else if (event.type === 'result') {
      this.exactUsd = event.costUsd;
    }
  }

  /** What the next turn would cost if it were like the last one; 0 once claude's result ended the session. */
  nextTurnUsd(): number {
    if (this.exactUsd !== undefined || this.lastCall === undefined) return 0;
    return estimateCost(this.lastCall.usage, this.lastCall.model, this.prices).usd;
  }

  figure(): SpendFigure {
    const tokens = { ...NO_TOKENS };
    let usd = 0;
    let unknownModel: string | undefined;
    for (const [model, usage] of this.byModel) {
      const estimate = estimateCost(usage, model, this.prices);
      usd += estimate.usd;
      if (!estimate.priceKnown) unknownModel ??= model;
      tokens.inputTokens += usage.inputTokens;
      tokens.outputTokens += usage.outputTokens;
      tokens.cacheReadTokens += usage.cacheReadTokens;
      tokens.cacheCreationTokens += usage.cacheCreationTokens;
    }
    if (this.exactUsd !== undefined) return { usd: this.exactUsd, estimated: false, tokens };
    return { usd, estimated: true, tokens, ...(unknownModel === undefined ? {} : { unknownModel }) };
  }
}
