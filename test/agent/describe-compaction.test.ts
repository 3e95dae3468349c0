/** The one writer of claude's compaction: stop reason, agent line, live activity and journal line. */
import { describe, expect, it } from 'vitest';
import { compactionFigures, describeCompaction } from '../../src/agent/describe-compaction.js';

describe('describeCompaction', () => {
  it.each([
    [{ type: 'compaction', stage: 'started' } as const, 'claude is compacting its context'],
    [{ type: 'compaction', stage: 'boundary', preTokens: 167_094, postTokens: 3_000 } as const, 'claude compacted its context (167,094 -> 3,000 tokens)'],
    [{ type: 'compaction', stage: 'boundary', preTokens: 167_094 } as const, 'claude compacted its context (167,094 -> 0 tokens)'],
    [{ type: 'compaction', stage: 'boundary' } as const, 'claude compacted its context'],
  ])('%j', (event, text) => {
    expect(describeCompaction(event)).toBe(text);
  });

  it('says nothing of figures the CLI did not give', () => {
    expect(compactionFigures(undefined, 12)).toBe('');
  });
});
