/**
 * The generated workflow's steps run, job by job in needs: order, against a bare repository
 * standing in for GitHub (local-actions-runner.ts), with the real claude answered by the scripted
 * model server: the commands are known to work, not only the YAML.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bash, done, scriptBySession } from '../e2e/session-script.js';
import { CiWorld, jobOf, logOf } from './ci-world.js';

let world: CiWorld | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

/**
 * Each phase's agent writes its own file, then signals. Phase 3 stops the first time (blocked, a
 * file of its own written): its next attempt, in a later dispatch, finds that file on its branch.
 */
const WRITE_OWN_FILE = scriptBySession({
  fresh: [
    bash([
      'if [ "$DEBUSSY_PHASE_ID" = 3 ] && [ ! -f started-3.txt ]; then echo started > started-3.txt && debussy done --phase 3 --status blocked --reason "needs a person"',
      'else echo "work of phase $DEBUSSY_PHASE_ID" > "phase-$DEBUSSY_PHASE_ID.txt" && debussy done --phase "$DEBUSSY_PHASE_ID"; fi',
    ].join('; ')),
    done(),
  ],
});
const gate = (id: string) => ({ name: 'own-file', command: `test -f phase-${id}.txt` });

describe('debussy ci github: the workflow run against a bare remote', () => {
  // One world for three dispatches: each phase run costs a debussy run and a claude session.
  it('runs phases 1 and 2, then 3 with their work merged in; 3 stops and keeps its work on its branch; the next dispatch continues it and the run branch gets all three, verified; a third skips every phase', async () => {
    world = await CiWorld.create({
      phases: [
        { id: '1', title: 'One', gates: [gate('1')] },
        { id: '2', title: 'Two', gates: [gate('2')] },
        // Passes only with the work of 1 and 2 merged in, and the file the first, blocked attempt wrote: the work was kept.
        { id: '3', title: 'Three', dependsOn: ['1', '2'], gates: [gate('3'), { name: 'saw-1-and-2', command: 'test -f phase-1.txt && test -f phase-2.txt' }, { name: 'kept', command: 'test -f started-3.txt' }] },
      ],
      script: WRITE_OWN_FILE,
    });
    const initial = await world.remoteGit('rev-parse', 'main');
    const first = await world.dispatch();
    expect(first.map((job) => [job.id, job.result]), logOf(first)).toEqual([
      ['phase-1', 'success'], ['phase-2', 'success'], ['phase-3', 'failure'], ['verify', 'skipped'], ['push', 'success'],
    ]);
    expect(await world.remoteGit('rev-parse', 'main')).toBe(initial);
    // The stopped phase's work is on its branch, with its dependencies' work (this run's bundles) merged in.
    expect(await world.remoteGit('show', 'debussy/main/e2e/3:started-3.txt')).toBe('started');
    for (const id of ['1', '2']) {
      expect(await world.remoteGit('show', `debussy/main/e2e/3:phase-${id}.txt`)).toBe(`work of phase ${id}`);
      // Each phase's work is kept on its own branch too.
      expect(await world.remoteGit('show', `debussy/main/e2e/${id}:phase-${id}.txt`)).toBe(`work of phase ${id}`);
    }

    const results = await world.dispatch();
    const log = logOf(results);
    expect(results.map((job) => [job.id, job.result]), log).toEqual([
      ['phase-1', 'success'], ['phase-2', 'success'], ['phase-3', 'success'], ['verify', 'success'], ['push', 'success'],
    ]);
    for (const id of ['1', '2']) expect(jobOf(results, `phase-${id}`).steps.find((step) => step.id === 'prepare')?.log).toContain(`phase ${id} is already complete`);
    expect(jobOf(results, 'phase-3').steps.find((step) => step.id === 'prepare')?.log).toContain('continuing on debussy/main/e2e/3');
    for (const id of ['1', '2', '3']) {
      expect(await world.remoteGit('show', `main:phase-${id}.txt`)).toBe(`work of phase ${id}`);
      expect(await world.remoteGit('show', `debussy/main/e2e/${id}:phase-${id}.txt`)).toBe(`work of phase ${id}`);
    }
    expect(await world.remoteGit('cat-file', '-e', 'main:started-3.txt')).toBe('');
    expect(await world.remoteGit('merge-base', '--is-ancestor', initial, 'main')).toBe('');
    const trailers = await world.remoteGit('log', 'main', '--format=%(trailers:key=Debussy-Completed,valueonly)');
    expect(trailers.split('\n').filter(Boolean).sort()).toEqual(['1 of plans/e2e/MASTER_PLAN.md', '2 of plans/e2e/MASTER_PLAN.md', '3 of plans/e2e/MASTER_PLAN.md']);
    const verify = jobOf(results, 'verify').steps.find((step) => step.id === 'verify');
    for (const id of ['1', '2', '3']) expect(verify?.log).toContain(`phase ${id} of E2E Plan marked completed (gates verified)`);
    expect(world.api.mainRequests().length).toBeGreaterThan(0);

    const requestsBefore = world.api.mainRequests().length;
    const main = await world.remoteGit('rev-parse', 'main');
    const again = await world.dispatch();
    const againLog = logOf(again);
    expect(again.map((job) => job.result), againLog).toEqual(['success', 'success', 'success', 'success', 'success']);
    for (const id of ['1', '2', '3']) {
      const prepare = jobOf(again, `phase-${id}`).steps.find((step) => step.id === 'prepare');
      expect(prepare?.log).toContain(`phase ${id} is already complete`);
      // Nothing is installed for a phase complete already.
      for (const skipped of ['install', 'run']) expect(jobOf(again, `phase-${id}`).steps.find((step) => step.id === skipped)?.outcome).toBe('skipped');
    }
    expect(world.api.mainRequests().length).toBe(requestsBefore);
    expect(await world.remoteGit('rev-parse', 'main')).toBe(main);
  }, 300_000);

  it('two phases that write one file differently: the merge stops naming the file, main is not moved, both phase branches are kept', async () => {
    world = await CiWorld.create({
      phases: [
        { id: '1', title: 'One', gates: [{ name: 'shared', command: 'test -f shared.txt' }] },
        { id: '2', title: 'Two', gates: [{ name: 'shared', command: 'test -f shared.txt' }] },
      ],
      script: scriptBySession({ fresh: [bash('echo "phase $DEBUSSY_PHASE_ID wrote this" > shared.txt && debussy done --phase "$DEBUSSY_PHASE_ID"'), done()] }),
    });
    const initial = await world.remoteGit('rev-parse', 'main');
    const results = await world.dispatch();
    const log = logOf(results);
    expect(results.map((job) => [job.id, job.result]), log).toEqual([['phase-1', 'success'], ['phase-2', 'success'], ['verify', 'failure'], ['push', 'success']]);
    const merge = jobOf(results, 'verify').steps.find((step) => step.id === 'merge');
    expect(merge?.outcome).toBe('failure');
    expect(merge?.log).toMatch(/::error title=debussy::merging phase 2 into main conflicts in: shared\.txt/);
    expect(await world.remoteGit('rev-parse', 'main')).toBe(initial);
    expect(await world.branches()).toEqual(['debussy/main/e2e/1', 'debussy/main/e2e/2', 'main']);
    expect(await world.remoteGit('show', 'debussy/main/e2e/1:shared.txt')).toBe('phase 1 wrote this');
    expect(await world.remoteGit('show', 'debussy/main/e2e/2:shared.txt')).toBe('phase 2 wrote this');
  }, 300_000);
});
