import { appendFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendEvent,
  journalPath,
  lastPlanUsed,
  projectJournalPath,
  readPhaseMarks,
  recordPhaseMark,
  recordPlanUsed,
} from '../../src/state/index.js';
import { makeTempDir, removeDir } from './support.js';

let root: string;
let planA: string;
let planB: string;

beforeEach(async () => {
  root = await makeTempDir('project');
  planA = join(root, 'plans', 'a', 'MASTER_PLAN.md');
  planB = join(root, 'plans', 'b', 'MASTER_PLAN.md');
});
afterEach(async () => removeDir(root));

describe('phase marks', () => {
  it('are empty before anything was marked', async () => {
    expect(await readPhaseMarks(root, planA)).toEqual({});
  });

  it('keep the last mark of each phase, per plan', async () => {
    recordPhaseMark(root, { planPath: planA, phaseId: '1', status: 'completed', verified: true });
    recordPhaseMark(root, { planPath: planA, phaseId: '2', status: 'blocked', verified: false, reason: 'needs a key' });
    recordPhaseMark(root, { planPath: planB, phaseId: '1', status: 'failed', verified: false });
    recordPhaseMark(root, { planPath: planA, phaseId: '2', status: 'completed', verified: false });

    const marks = await readPhaseMarks(root, planA);
    expect(Object.keys(marks).sort()).toEqual(['1', '2']);
    expect(marks['1']).toMatchObject({ status: 'completed', verified: true });
    expect(marks['2']).toEqual({ status: 'completed', verified: false, ts: expect.any(String) as string });
    expect(await readPhaseMarks(root, planB)).toMatchObject({ '1': { status: 'failed', verified: false } });
  });

  it('match the plan however its path is spelled', async () => {
    recordPhaseMark(root, { planPath: join(root, 'plans', 'x', '..', 'a', 'MASTER_PLAN.md'), phaseId: '6D', status: 'completed', verified: true });
    expect(Object.keys(await readPhaseMarks(root, relative(process.cwd(), planA)))).toEqual(['6D']);
  });

  it('survive a damaged line in the project file', async () => {
    recordPhaseMark(root, { planPath: planA, phaseId: '1', status: 'completed', verified: true });
    await appendFile(projectJournalPath(root), 'oops\n');
    recordPhaseMark(root, { planPath: planA, phaseId: '2', status: 'completed', verified: true });
    expect(Object.keys(await readPhaseMarks(root, planA))).toEqual(['1', '2']);
  });
});

describe('lastPlanUsed', () => {
  it('is undefined in a project that never ran a plan', async () => {
    expect(await lastPlanUsed(root)).toBeUndefined();
  });

  it('falls back to the plan of the newest run', async () => {
    appendEvent(journalPath(root, '20260101-000000-aaaa'), {
      type: 'run_started',
      runId: '20260101-000000-aaaa',
      planPath: planB,
      planName: 'B',
      phaseIds: ['1'],
      options: {},
    });
    expect(await lastPlanUsed(root)).toBe(planB);
  });

  it('is the plan recorded last', async () => {
    recordPlanUsed(root, planA);
    recordPlanUsed(root, planB);
    expect(await lastPlanUsed(root)).toBe(planB);
    recordPlanUsed(root, planA);
    expect(await lastPlanUsed(root)).toBe(planA);
  });
});
