/** The run's failures read back from the journal of the run it resumes: classes it knows, as recorded. */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/index.js';
import { createRunRecovery } from '../../src/orchestrator/run-recovery.js';
import type { JournalEvent } from '../../src/state/index.js';

const recovery = (failureClass: string, message: string, ts: string): JournalEvent => ({
  v: 1, ts, pid: 1, type: 'recovery', phaseId: '2', failureClass, severity: 'medium', message, correlationKey: `${failureClass}:x`, action: 'resume', reason: 'r',
});

describe('createRunRecovery', () => {
  it('keeps the failures of known classes and leaves out one it cannot name', () => {
    const events = [
      recovery('rate_limit', 'HTTP 429', '2026-03-01T10:00:00.000Z'),
      recovery('class_of_a_newer_debussy', 'something new', '2026-03-01T10:01:00.000Z'),
      recovery('agent_crash', 'killed by SIGKILL', '2026-03-01T10:02:00.000Z'),
    ];
    expect(createRunRecovery(defaultConfig(), events).failures).toEqual([
      { class: 'rate_limit', message: 'HTTP 429', at: Date.parse('2026-03-01T10:00:00.000Z'), phaseId: '2', correlationKey: 'rate_limit:x' },
      { class: 'agent_crash', message: 'killed by SIGKILL', at: Date.parse('2026-03-01T10:02:00.000Z'), phaseId: '2', correlationKey: 'agent_crash:x' },
    ]);
  });
});
