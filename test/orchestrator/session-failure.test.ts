import { describe, expect, it } from 'vitest';
import type { SessionOutcome } from '../../src/agent/index.js';
import { sessionFailed } from '../../src/orchestrator/session-failure.js';
import type { SessionReport, StopCause } from '../../src/orchestrator/session-runner.js';
import { createRedactor } from '../../src/redact/index.js';
import { classifySessionEnd } from '../../src/recovery/index.js';

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

describe('classifying a session report: the texts a failure message is cut from are redacted whole first', () => {
  const TOKEN = 'ghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u';
  const redact = createRedactor({});
  // classify.ts keeps 299 characters of the first line: the token starts at 287.
  const text = `${'e'.repeat(286)} ${TOKEN} rejected`;
  const report = {
    end: {
      outcome: 'api_error', exitCode: 1, signal: null, sawResult: false, stopRequested: false, unparsedLines: 0, stderrTail: text, durationMs: 1, leftoverProcessesKilled: 0, streamTokens: { input: 0, output: 0 },
      lastApiError: { type: 'api_error', errorType: 'unknown', text },
    },
    stoppedBy: undefined,
    refusals: [],
  } as unknown as SessionReport;

  it('no part of a token on the cut reaches the failure message', () => {
    const unredacted = classifySessionEnd(report, { now: 0 });
    expect(unredacted.message).toContain(TOKEN.slice(0, 10));
    const failure = classifySessionEnd(report, { now: 0, redact });
    expect(failure.message).not.toContain(TOKEN.slice(0, 6));
  });
});
