import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendEvent,
  journalPath,
  type JournalKey,
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
const secret = randomBytes(32);
const key: JournalKey = { ok: true, key: secret, file: 'test' };
const otherKey: JournalKey = { ok: true, key: randomBytes(32), file: 'other' };

beforeEach(async () => {
  root = await makeTempDir('project');
  planA = join(root, 'plans', 'a', 'MASTER_PLAN.md');
  planB = join(root, 'plans', 'b', 'MASTER_PLAN.md');
});
afterEach(async () => removeDir(root));

describe('phase marks', () => {
  it('are empty before anything was marked', async () => {
    expect(await readPhaseMarks(root, planA, key)).toEqual({});
  });

  it('keep the last mark of each phase, per plan', async () => {
    recordPhaseMark(root, { planPath: planA, phaseId: '1', status: 'completed', verified: true }, secret);
    recordPhaseMark(root, { planPath: planA, phaseId: '2', status: 'blocked', verified: false, reason: 'needs a key' });
    recordPhaseMark(root, { planPath: planB, phaseId: '1', status: 'failed', verified: false });
    recordPhaseMark(root, { planPath: planA, phaseId: '2', status: 'completed', verified: false });

    const marks = await readPhaseMarks(root, planA, key);
    expect(Object.keys(marks).sort()).toEqual(['1', '2']);
    expect(marks['1']).toEqual({ status: 'completed', verified: true, ts: expect.any(String) as string });
    expect(marks['2']).toEqual({ status: 'completed', verified: false, ts: expect.any(String) as string, unproven: 'not_verified' });
    expect(await readPhaseMarks(root, planB, key)).toMatchObject({ '1': { status: 'failed', verified: false } });
  });

  it('match the plan however its path is spelled', async () => {
    recordPhaseMark(root, { planPath: join(root, 'plans', 'x', '..', 'a', 'MASTER_PLAN.md'), phaseId: '6D', status: 'completed', verified: true });
    expect(Object.keys(await readPhaseMarks(root, relative(process.cwd(), planA), key))).toEqual(['6D']);
  });

  it('survive a damaged line in the project file', async () => {
    recordPhaseMark(root, { planPath: planA, phaseId: '1', status: 'completed', verified: true });
    await appendFile(projectJournalPath(root), 'oops\n');
    recordPhaseMark(root, { planPath: planA, phaseId: '2', status: 'completed', verified: true });
    expect(Object.keys(await readPhaseMarks(root, planA, key))).toEqual(['1', '2']);
  });
});

describe('a verified mark proves a completion only with a seal that checks', () => {
  const verifiedMark = (phaseId: string, sealWith?: Buffer) => recordPhaseMark(root, { planPath: planA, phaseId, status: 'completed', verified: true }, sealWith);

  it('sealed under this key: proven; no seal, or another key: not', async () => {
    verifiedMark('1', secret);
    verifiedMark('2');
    verifiedMark('3', otherKey.ok ? otherKey.key : undefined);
    const marks = await readPhaseMarks(root, planA, key);
    expect(marks['1']?.unproven).toBeUndefined();
    expect(marks['2']?.unproven).toBe('unsealed');
    expect(marks['3']?.unproven).toBe('bad_seal');
    expect((await readPhaseMarks(root, planA, { ok: false, file: 'k', problem: 'gone' }))['1']?.unproven).toBe('no_key');
  });

  it('a line appended by hand, or a sealed line edited for another phase, proves nothing', async () => {
    verifiedMark('1', secret);
    const genuine = (await readFile(projectJournalPath(root), 'utf8')).trim();
    const ts = new Date().toISOString();
    await appendFile(projectJournalPath(root), `${JSON.stringify({ type: 'phase_marked', v: 1, ts, pid: 1, planPath: planA, phaseId: '2', status: 'completed', verified: true })}\n`);
    await appendFile(projectJournalPath(root), `${genuine.replace('"phaseId":"1"', '"phaseId":"3"')}\n`);
    const marks = await readPhaseMarks(root, planA, key);
    expect(marks['1']?.unproven).toBeUndefined();
    expect(marks['2']?.unproven).toBe('unsealed');
    expect(marks['3']?.unproven).toBe('bad_seal');
  });

  it('a genuine mark repeated after a later one is a replay', async () => {
    verifiedMark('1', secret);
    const first = (await readFile(projectJournalPath(root), 'utf8')).trim();
    await new Promise((resolve) => setTimeout(resolve, 5));
    recordPhaseMark(root, { planPath: planA, phaseId: '1', status: 'failed', verified: true }, secret);
    await appendFile(projectJournalPath(root), `${first}\n`);
    expect((await readPhaseMarks(root, planA, key))['1']).toMatchObject({ status: 'completed', unproven: 'replayed' });
  });

  it('a sealed mark copied from another project names that project\'s plan: not a mark of this one', async () => {
    const other = await makeTempDir('project-other');
    try {
      recordPhaseMark(other, { planPath: join(other, 'plans', 'a', 'MASTER_PLAN.md'), phaseId: '1', status: 'completed', verified: true }, secret);
      await mkdir(dirname(projectJournalPath(root)), { recursive: true });
      await writeFile(projectJournalPath(root), await readFile(projectJournalPath(other), 'utf8'));
      expect(await readPhaseMarks(root, planA, key)).toEqual({});
    } finally {
      await removeDir(other);
    }
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
