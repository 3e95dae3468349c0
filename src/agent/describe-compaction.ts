/**
 * The words for claude compacting its context, written once: the reporters' agent line, the live
 * view's activity, the stop reason (and so the restart reason and the checkpoint) and the journal
 * line all say it this way.
 */
import { formatCount } from '../text/format-count.js';
import type { AgentEvent } from './agent-events.js';

/** " (167,094 -> 3,000 tokens)": what the compaction left of the context; '' when the CLI did not say. */
export function compactionFigures(preTokens: number | undefined, postTokens: number | undefined): string {
  return preTokens === undefined ? '' : ` (${formatCount(preTokens)} -> ${formatCount(postTokens ?? 0)} tokens)`;
}

/** "claude is compacting its context" when it starts, "claude compacted its context (167,094 -> 3,000 tokens)" once done. */
export function describeCompaction(event: Extract<AgentEvent, { type: 'compaction' }>): string {
  return event.stage === 'started' ? 'claude is compacting its context' : `claude compacted its context${compactionFigures(event.preTokens, event.postTokens)}`;
}
