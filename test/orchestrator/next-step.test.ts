import { describe, expect, it } from 'vitest';
import { decideNextStep, type NextStepInput } from '../../src/orchestrator/next-step.js';

const base: NextStepInput = {
  phaseId: '2', signal: undefined, outcome: 'completed', stoppedBy: undefined, crossingText: undefined,
  restarts: 0, maxRestarts: 3, retries: 0, maxRetries: 2, alreadyContinued: false, sessionId: 's1', failureText: undefined,
};

describe('decideNextStep', () => {
  it.each<[string, Partial<NextStepInput>, string]>([
    ['completed signal is verified', { signal: { status: 'completed' } }, 'verify'],
    ['completed signal wins over a context stop', { signal: { status: 'completed' }, stoppedBy: 'context', outcome: 'stopped' }, 'verify'],
    ['blocked signal blocks', { signal: { status: 'blocked', reason: 'need a key' } }, 'blocked'],
    ['failed signal retries', { signal: { status: 'failed' } }, 'retry'],
    ['failed signal without retries fails', { signal: { status: 'failed' }, retries: 2 }, 'fail'],
    ['a context stop restarts', { stoppedBy: 'context', outcome: 'stopped', crossingText: 'context at 81%' }, 'restart'],
    ['a context stop at the restart limit fails', { stoppedBy: 'context', outcome: 'stopped', restarts: 3 }, 'fail'],
    ['a compaction stop restarts from a checkpoint', { stoppedBy: 'compaction', outcome: 'stopped', crossingText: 'claude compacted its context' }, 'restart'],
    ['a compaction stop at the restart limit fails', { stoppedBy: 'compaction', outcome: 'stopped', restarts: 3 }, 'fail'],
    ['interrupt wins over everything but is not a failure', { stoppedBy: 'interrupt', outcome: 'stopped' }, 'interrupted'],
    ['no signal: continue the same session once', { outcome: 'completed' }, 'continue'],
    ['no signal twice: retry fresh', { outcome: 'completed', alreadyContinued: true }, 'retry'],
    ['no signal and no session id: retry', { outcome: 'completed', sessionId: undefined }, 'retry'],
    ['a crash retries', { outcome: 'crashed' }, 'retry'],
    ['a crash with no retries left fails', { outcome: 'crashed', retries: 2 }, 'fail'],
  ])('%s', (_name, change, kind) => {
    expect(decideNextStep({ ...base, ...change }).kind).toBe(kind);
  });

  it('counts the restart or retry it decides on, from the counters it was given', () => {
    expect(decideNextStep({ ...base, stoppedBy: 'context', outcome: 'stopped', restarts: 1, crossingText: 'context at 81%' })).toEqual({ kind: 'restart', reason: 'context at 81%', restarts: 2 });
    expect(decideNextStep({ ...base, outcome: 'crashed', retries: 1 })).toEqual({ kind: 'retry', reason: 'the session ended with crashed', retries: 2 });
  });

  it('says which limit was hit and what to do when restarts run out', () => {
    const step = decideNextStep({ ...base, stoppedBy: 'context', outcome: 'stopped', restarts: 3, crossingText: 'context at 85.0% of 200,000 tokens crossed the 80% threshold' });
    expect(step).toEqual({
      kind: 'fail',
      reason: 'phase 2: context at 85.0% of 200,000 tokens crossed the 80% threshold again after 3 restart(s) (max_restarts 3)',
      hint: 'Split the phase into smaller phases, or raise --max-restarts or --context-threshold.',
    });
  });
});
