import { describe, expect, it } from 'vitest';
import { describeNext, type UpcomingPhase } from '../../src/cli/status-next.js';
import { foldRun, type JournalEvent, type RunStatus } from '../../src/state/index.js';

const ts = '2026-01-01T00:00:00.000Z';
const base = { v: 3, ts, pid: 1 };

/** A run of phases 1-3 in which `started` phases began and `completed` ones ended completed. */
function state(options: { completed?: string[]; started?: string[]; openSession?: string; ended?: boolean; status?: RunStatus }) {
  const events = [
    { ...base, type: 'run_started', runId: 'r1', planPath: '/p/plans/x/MASTER_PLAN.md', planName: 'X', phaseIds: ['1', '2', '3'], options: {} },
    ...[...(options.completed ?? []), ...(options.started ?? [])].flatMap((id) => [
      { ...base, type: 'phase_started', phaseId: id, title: id },
      { ...base, type: 'attempt_started', phaseId: id, attemptId: `a${id}`, kind: 'initial', restart: 0, retry: 0 },
    ]),
    ...(options.openSession === undefined ? [] : [{ ...base, type: 'session_started', phaseId: options.openSession, attemptId: `a${options.openSession}`, sessionIndex: 2 }]),
    ...(options.completed ?? []).map((id) => ({ ...base, type: 'phase_ended', phaseId: id, status: 'completed' })),
    ...(options.ended === true ? [{ ...base, type: 'run_ended', status: options.status ?? 'completed', exitCode: 0 }] : []),
  ] as unknown as JournalEvent[];
  const folded = foldRun(events);
  if (folded === undefined) throw new Error('no run');
  return folded;
}

const up = (spec: string): UpcomingPhase[] =>
  spec.split(' ').map((entry) => {
    const [id = '', action = 'run'] = entry.split(':');
    return { id, action: action as UpcomingPhase['action'] };
  });

describe('describeNext', () => {
  it.each<[string, Parameters<typeof state>[0], RunStatus, UpcomingPhase[] | undefined, string]>([
    ['running, a session open, a later phase marked done', { completed: [], started: ['1'], openSession: '1' }, 'running', up('1:resume 2:skip 3:run'), 'phase 1 is running (session 2); after it, this run goes on with 3'],
    ['running, the last phase', { completed: ['1', '2'], started: ['3'], openSession: '3' }, 'running', up('1:skip 2:skip 3:resume'), 'phase 3 is running (session 2); it is the last phase to run'],
    ['running, between sessions (gates)', { started: ['1'] }, 'running', up('1:resume 2:run 3:run'), 'phase 1 is running (between sessions); after it, this run goes on with 2, 3'],
    ['completed', { completed: ['1', '2', '3'], ended: true }, 'completed', up('1:skip 2:skip 3:skip'), 'nothing: every phase completed'],
    ['completed, a phase added to the plan since', { completed: ['1', '2', '3'], ended: true }, 'completed', up('1:skip 2:skip 3:skip 4:run'), '`debussy run plans/x/MASTER_PLAN.md` skips the completed phases and runs 4'],
    ['interrupted: resumes, then the rest but the marked one', { started: ['1'] }, 'interrupted', up('1:resume 2:skip 3:run'), '`debussy run plans/x/MASTER_PLAN.md` resumes phase 1 from its checkpoint (restarts 0, retries 0 carried over), then runs 3'],
    ['failed, a claimed completion is verified again', { completed: ['1'], ended: true, status: 'failed' }, 'failed', up('1:verify 2:run 3:run'), '`debussy run plans/x/MASTER_PLAN.md` skips the completed phases and runs 1 (its gates checked again first), 2, 3'],
    ['every phase done by marks after a failed run', { completed: ['1'], ended: true, status: 'failed' }, 'failed', up('1:skip 2:skip 3:skip'), 'nothing: every phase is done (`debussy run plans/x/MASTER_PLAN.md` would run none)'],
    ['no readable plan: from the run state', { completed: ['1'], ended: true, status: 'failed' }, 'failed', undefined, '`debussy run plans/x/MASTER_PLAN.md` skips the completed phases and runs 2, 3'],
    ['blocked', { started: ['2'], completed: ['1'], ended: true, status: 'blocked' }, 'blocked', up('1:skip 2:run 3:run'), 'answer what the agent needs (reason above), then `debussy run plans/x/MASTER_PLAN.md` runs phase 2 again'],
  ])('%s', (_name, spec, status, upcoming, expected) => {
    expect(describeNext({ state: state(spec), status, planArg: 'plans/x/MASTER_PLAN.md', upcoming })).toBe(expected);
  });
});
