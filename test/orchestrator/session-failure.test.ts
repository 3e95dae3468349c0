import { describe, expect, it } from 'vitest';
import type { SessionOutcome } from '../../src/agent/index.js';
import { sessionFailed } from '../../src/orchestrator/session-failure.js';
import type { StopCause } from '../../src/orchestrator/session-runner.js';

const REFUSED = [{ toolUseId: 't1', summary: 'Bash: npm test' }];

describe('sessionFailed: which session ends go to the recovery policy', () => {
  it.each<[string, SessionOutcome, StopCause | undefined, boolean, typeof REFUSED, boolean]>([
    ['a clean end without a signal: the reminder path, not a failure', 'completed', undefined, false, [], false],
    ['a clean end without a signal after refusals: a permission failure', 'completed', undefined, false, REFUSED, true],
    ['refusals, but the agent signalled: verification decides', 'completed', undefined, true, REFUSED, false],
    ['refusals in a session debussy stopped at the threshold: a restart', 'stopped', 'context', false, REFUSED, false],
    ['refusals in an interrupted session: the user stopped it', 'stopped', 'interrupt', false, REFUSED, false],
    ['a stall is a failure whatever else', 'stopped', 'stall', false, [], true],
    ['an API error is a failure', 'api_error', undefined, false, [], true],
  ])('%s', (_name, outcome, stoppedBy, signalled, refusals, failed) => {
    expect(sessionFailed({ end: { outcome }, stoppedBy, refusals }, signalled)).toBe(failed);
  });
});
