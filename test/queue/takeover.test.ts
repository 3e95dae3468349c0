/** A worker taking a phase over from the commits another worker pushed: what the first session starts from. Pure. */
import { describe, expect, it } from 'vitest';
import { buildCommitMessage, type CommitMessageInput, type LoggedCommit } from '../../src/git/index.js';
import { decideTakeover, describeTakeover } from '../../src/queue/takeover.js';

const JOB = { phaseId: '2', runId: '20261127-101500-ab12', baseSha: 'b'.repeat(40) };

/** A commit as `git log` gives it, its message written by buildCommitMessage (or given whole: the agent's own). */
function logged(n: number, message: Omit<CommitMessageInput, 'planName' | 'phaseId'> | string, phaseId = '2'): LoggedCommit {
  const text = typeof message === 'string' ? message : buildCommitMessage({ planName: 'p', phaseId, ...message });
  const [subject = '', , ...body] = text.split('\n');
  return { sha: String(n).repeat(40), subject, body: body.join('\n'), date: `2026-11-27T10:0${n}:00+00:00` };
}

const CHECKPOINT = logged(1, { purpose: 'checkpoint', restart: 1, maxRestarts: 3, progress: ['wrote the router'] });
const SECOND = logged(2, { purpose: 'checkpoint', restart: 2, maxRestarts: 3, progress: ['wrote the router', 'started the tests'] });
const FAILURE = logged(3, { purpose: 'checkpoint', reason: 'the session crashed', progress: ['wrote the router', 'started the tests'] });
const INTERRUPTED = logged(4, { purpose: 'interrupted', restart: 2, progress: ['wrote the router', 'started the tests', 'tests pass'] });
const AGENTS_OWN = logged(5, 'fix the router\n\nby hand');
const OTHER_PHASE = logged(6, { purpose: 'checkpoint', restart: 3, progress: ['not this phase'] }, '3');

describe('decideTakeover', () => {
  it('starts fresh when the phase branch holds no commit beyond the job\'s base', () => {
    expect(decideTakeover(JOB, [])).toBeUndefined();
  });

  it.each<[string, LoggedCommit[], { progress: string[]; restarts: number; head: LoggedCommit; stopped: boolean }]>([
    ['killed after a restart\'s checkpoint', [CHECKPOINT], { progress: ['wrote the router'], restarts: 1, head: CHECKPOINT, stopped: false }],
    ['killed after two restarts and a failed session: the newest progress, the most restarts', [CHECKPOINT, SECOND, FAILURE], { progress: ['wrote the router', 'started the tests'], restarts: 2, head: FAILURE, stopped: false }],
    ['stopped: its interrupted commit last', [CHECKPOINT, INTERRUPTED], { progress: ['wrote the router', 'started the tests', 'tests pass'], restarts: 2, head: INTERRUPTED, stopped: true }],
    ['the agent committed after the worker\'s stop: not known as a stop', [INTERRUPTED, AGENTS_OWN], { progress: ['wrote the router', 'started the tests', 'tests pass'], restarts: 2, head: AGENTS_OWN, stopped: false }],
    ['only the agent\'s own commits: nothing recorded to read', [AGENTS_OWN], { progress: [], restarts: 0, head: AGENTS_OWN, stopped: false }],
    ['a commit of another phase says nothing of this one', [CHECKPOINT, OTHER_PHASE], { progress: ['wrote the router'], restarts: 1, head: OTHER_PHASE, stopped: false }],
  ])('%s', (_name, commits, expected) => {
    const takeover = decideTakeover(JOB, commits);
    expect(takeover?.head).toBe(expected.head);
    expect(takeover?.commits).toBe(commits.length);
    const carry = takeover?.carry;
    expect(carry?.restarts).toBe(expected.restarts);
    expect(carry?.baseSha).toBe(JOB.baseSha);
    expect(carry?.resumedFrom?.runId).toBe(JOB.runId);
    expect(carry?.resumedFrom?.progress.map((entry) => entry.message)).toEqual(expected.progress);
    expect(carry?.resumeReason).toBe(describeTakeover(expected.head, expected.stopped ? 'interrupted' : undefined));
  });

  it('dates the progress by the commit that carried it, and starts its own counts from zero', () => {
    const carry = decideTakeover(JOB, [CHECKPOINT, SECOND])?.carry;
    expect(carry?.resumedFrom?.progress).toEqual([
      { message: 'wrote the router', ts: SECOND.date },
      { message: 'started the tests', ts: SECOND.date },
    ]);
    expect(carry).toMatchObject({ retries: 0, sessions: 0, resumedFrom: { lastActivity: [] } });
  });
});

describe('describeTakeover', () => {
  it.each<[string, string | undefined, string]>([
    ['interrupted', 'interrupted', 'the worker that ran it before (another `debussy worker`) was stopped during a session and pushed its work; this worker took the job over from the phase branch at 1111111111 "debussy: checkpoint phase 2"'],
    ['checkpoint', 'checkpoint', 'the worker that ran it before (another `debussy worker`) was killed or lost during a session; this worker took the job over from what it had pushed, the phase branch at 1111111111 "debussy: checkpoint phase 2", and whatever that session did after its last push is lost'],
    ['the agent\'s own commit', undefined, 'the worker that ran it before (another `debussy worker`) was killed or lost during a session; this worker took the job over from what it had pushed, the phase branch at 1111111111 "debussy: checkpoint phase 2", and whatever that session did after its last push is lost'],
  ])('the last commit %s', (_name, purpose, expected) => {
    expect(describeTakeover({ sha: '1'.repeat(40), subject: 'debussy: checkpoint phase 2' }, purpose)).toBe(expected);
  });

  it('makes a pushed subject one short inert line', () => {
    const text = describeTakeover({ sha: '1'.repeat(40), subject: `\x1b]0;title\x07evil ${'x'.repeat(500)}` }, undefined);
    expect([...text].filter((char) => char === '\x1b' || char === '\x07')).toEqual([]);
    expect(text).toContain('"evil xxx');
    expect(/"(evil x+…)"/.exec(text)?.[1]).toHaveLength(120);
  });
});
