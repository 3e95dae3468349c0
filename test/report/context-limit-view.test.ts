import { describe, expect, it } from 'vitest';
import { NO_COLORS } from '../../src/report/color.js';
import { applyAgentEvent, applyJournalEvent, applyRunStart, INITIAL_LIVE_STATE } from '../../src/report/live-state.js';
import { renderStatusArea, type FrameOptions } from '../../src/report/status-area.js';
import { journalOf, snapshot, START_INFO, T0 } from './run-events.js';

const frameOptions: FrameOptions = { now: T0 + 75_000, width: 110, colors: NO_COLORS, unicode: false, spinnerFrame: 0 };

function contextLineWith(over: Parameters<typeof snapshot>[0]): string {
  let state = applyRunStart(INITIAL_LIVE_STATE, START_INFO);
  for (const event of journalOf().slice(0, 12)) state = applyJournalEvent(state, event, T0);
  state = applyAgentEvent(state, { type: 'request_started' }, snapshot(over));
  return renderStatusArea(state, frameOptions).at(-1) ?? '';
}

describe('live gauge: the effective limit and where it came from', () => {
  it('a 1M window capped by max_context_tokens: the mark sits at the cap and the line names it', () => {
    const line = contextLineWith({ usedTokens: 300_000, contextWindow: 1_000_000, percent: 30, limit: { tokens: 400_000, source: 'max_context_tokens' } });
    expect(line).toBe('  context [############----|-----------------------] 30% 300k/1M (restart at 400k: max_context_tokens)');
  });

  it('the threshold where it comes first: unchanged wording', () => {
    const line = contextLineWith({ usedTokens: 100_000, contextWindow: 200_000, percent: 50, limit: { tokens: 160_000, source: 'context_threshold' } });
    expect(line).toMatch(/ 50% 100k\/200k \(restart at 80%\)$/);
  });
});
