import { describe, expect, it } from 'vitest';
import { snapshotIntervalMs } from '../../src/agent/session-processes.js';

describe('snapshotIntervalMs', () => {
  it.each([
    ['procfs', 1_000],
    // A synchronous `ps` blocks the stream while it runs: not every second.
    ['ps', 5_000],
  ] as const)('%s: every %i ms', (backend, ms) => {
    expect(snapshotIntervalMs(backend)).toBe(ms);
  });
});
