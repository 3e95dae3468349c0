import { execFile } from 'node:child_process';
import { appendFile, mkdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendEvent,
  debussyDir,
  findProjectRoot,
  journalPath,
  latestRun,
  listRuns,
  loadRun,
  newRunId,
  runDir,
  runsDir,
} from '../../src/state/index.js';
import { makeTempDir, removeDir } from './support.js';

let root: string;

beforeEach(async () => {
  root = await makeTempDir('runs');
});
afterEach(async () => removeDir(root));

function startRun(runId: string, planPath: string): void {
  appendEvent(journalPath(root, runId), { type: 'run_started', runId, planPath, planName: runId, phaseIds: ['1'], options: {} });
}

describe('paths', () => {
  it('finds the git top level from a subdirectory', async () => {
    await promisify(execFile)('git', ['init', '-q', root]);
    const sub = join(root, 'src', 'deep');
    await mkdir(sub, { recursive: true });
    expect(await findProjectRoot(sub)).toBe(await realpath(root));
  });

  it('uses the directory itself outside git', async () => {
    const plain = join(root, 'plain');
    await mkdir(plain);
    // The temp dir is not inside a repository, so git finds nothing to climb to.
    expect(await findProjectRoot(join(plain, '.'))).toBe(resolve(plain));
  });

  it('puts everything under .debussy', () => {
    expect(debussyDir('/p')).toBe('/p/.debussy');
    expect(runsDir('/p')).toBe('/p/.debussy/runs');
    expect(journalPath('/p', 'r1')).toBe('/p/.debussy/runs/r1/journal.ndjson');
  });

  it('refuses run ids that would leave the runs directory', () => {
    for (const bad of ['../x', 'a/b', '', '.hidden']) expect(() => runDir('/p', bad)).toThrow(/invalid run id/);
  });

  it('makes run ids that sort by time', () => {
    const early = newRunId(new Date('2026-11-21T21:45:01Z'));
    const late = newRunId(new Date('2026-11-21T21:45:02Z'));
    expect(early).toMatch(/^20261121-214501-[0-9a-f]{4}$/);
    expect(early < late).toBe(true);
  });
});

describe('runs', () => {
  it('lists nothing in a fresh project', async () => {
    expect(await listRuns(root)).toEqual([]);
    expect(await latestRun(root)).toBeUndefined();
  });

  it('lists runs newest first and skips the lock scratch directory', async () => {
    const ids = ['20260101-000000-aaaa', '20260102-000000-bbbb', '20260103-000000-cccc'];
    for (const id of ids) startRun(id, join(root, 'plan.md'));
    await mkdir(runDir(root, '20260104-000000-empty'), { recursive: true });
    await mkdir(join(runsDir(root), '.lock'), { recursive: true });
    const runs = await listRuns(root);
    expect(runs.map((run) => run.runId)).toEqual([...ids].reverse().concat('20260104-000000-empty'));
    expect(runs[3]).toMatchObject({ state: undefined, badLines: 0, tornTail: false });
  });

  it('finds the newest run, or the newest run of a plan', async () => {
    const planA = join(root, 'plans', 'a.md');
    startRun('20260101-000000-aaaa', planA);
    startRun('20260102-000000-bbbb', join(root, 'plans', 'b.md'));
    startRun('20260103-000000-cccc', 'plans/a.md'); // stored relative: relative to the project root
    startRun('20260104-000000-dddd', join(root, 'plans', 'b.md'));

    expect((await latestRun(root))?.runId).toBe('20260104-000000-dddd');
    expect((await latestRun(root, planA))?.runId).toBe('20260103-000000-cccc');
    expect((await latestRun(root, join(root, 'plans', 'nope.md')))?.runId).toBeUndefined();
  });

  it('loads one run with its journal damage reported', async () => {
    const id = '20260101-000000-aaaa';
    startRun(id, join(root, 'plan.md'));
    await appendFile(journalPath(root, id), 'garbage\n');
    appendEvent(journalPath(root, id), { type: 'phase_started', phaseId: '1', title: 'One' });
    await appendFile(journalPath(root, id), '{"type":"phase_en');

    const run = await loadRun(root, id);
    expect(run).toMatchObject({ runId: id, dir: runDir(root, id), badLines: 1, tornTail: true });
    expect(run?.state?.phases['1']?.status).toBe('in_progress');
    expect(await loadRun(root, '20990101-000000-none')).toBeUndefined();
  });
});
