/**
 * Issue 25 acceptance (one machine: --parallel), through the real claude against the scripted
 * server: two independent phases run at once in worktrees (their requests interleave in the
 * server's log), Ctrl-C in the middle of them, the resume runs both at once again, kill -9 in its
 * middle, and a plain `debussy run` completes with nothing lost, the dependent phase seeing both
 * and everything merged (one project through the three runs); a usage limit one phase meets holds
 * back the other phase's next session until it resets, and the same pair, having written the same
 * file, gets a merge remediation for the second merge (one run). The supervisor's own decisions (phase 3 waits for both merges, one budget, a merge that
 * breaks a gate, worktree_setup...) are shown in process in test/parallel/parallel-run.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf, type PhaseSpec } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { assistantTurns, bash, done, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

/** The phase a request belongs to, from its prompt ("phase 2" comes first in a fresh and in a checkpoint prompt). */
function phaseOf(req: RecordedRequest): string {
  return /phase (\w+)/.exec(firstUserText(req))?.[1] ?? '?';
}

/** [first, last] arrival of a phase's main requests. */
function span(requests: RecordedRequest[], phaseId: string): [number, number] {
  const times = requests.filter((r) => phaseOf(r) === phaseId).map((r) => r.receivedAt);
  return [Math.min(...times), Math.max(...times)];
}

const DIAMOND: PhaseSpec[] = [
  { id: '1', title: 'Left', gates: [{ name: 'left', command: 'test -f left.txt' }] },
  { id: '2', title: 'Right', gates: [{ name: 'right', command: 'test -f right.txt' }] },
  { id: '3', title: 'Both', dependsOn: ['1', '2'], gates: [{ name: 'both', command: 'test -f both.txt' }] },
];

describe('--parallel 2', () => {
  it('Ctrl-C, then kill -9, in the middle of two phases run at once in worktrees: each resume goes on in the same worktrees, nothing is lost, the dependent phase sees both and everything merges', async () => {
    // One project through three runs (issue #25's facts of the diamond, a Ctrl-C and a kill -9 each
    // once): 1 `--parallel 2`, Ctrl-C while both phases' agents sleep; 2 `--parallel 2` resumes
    // both, kill -9 while both sleep again; 3 a plain `debussy run` ends the orphans, resumes each
    // phase in its worktree, then runs phase 3 and merges all three.
    let killed = false;
    const fresh: Record<string, ScriptedTurn[]> = {
      // The first turn's latency makes the two sessions' requests interleave in the server's log.
      '1': [write('left.txt', 'left\n', { latencyMs: 2500 }), bash('(sleep 21.1)'), done()],
      '2': [write('right.txt', 'right\n', { latencyMs: 2500 }), bash('(sleep 21.2)'), done()],
      '3': [bash('test -f left.txt && test -f right.txt && echo both > both.txt'), bash('debussy done --phase 3'), done()],
    };
    project = await E2EProject.create({
      phases: DIAMOND,
      script: (req) => {
        const id = phaseOf(req);
        const turns = sessionKind(req) !== 'checkpoint'
          ? fresh[id]
          : killed ? [bash(`debussy done --phase ${id}`), done()] : [write(`more-${id}.txt`, 'more\n'), bash(`(sleep 23.${id})`), done()];
        return turns?.[assistantTurns(req)] ?? done();
      },
    });
    const first = project.start(['run', project.planArg, '--parallel', '2']);
    await waitFor('both agents to run their sleep', () => livePids(/^sleep 21\.1$/).length > 0 && livePids(/^sleep 21\.2$/).length > 0);
    first.child.kill('SIGINT');
    const interrupted = await first.done;
    expect(interrupted.code, interrupted.stdout + interrupted.stderr).toBe(130);
    expect(livePids(/^sleep 21\.[12]$/)).toEqual([]);
    // Overlap in the server's log: each phase's first request came before the other's last.
    const firstRun = project.api.mainRequests();
    const [start1, end1] = span(firstRun, '1');
    const [start2, end2] = span(firstRun, '2');
    expect(start2).toBeLessThan(end1);
    expect(start1).toBeLessThan(end2);
    const before = await project.journal();
    expect(eventsOf(before, 'commit').filter((c) => c.purpose === 'interrupted').map((c) => c.phaseId).sort()).toEqual(['1', '2']);
    const trees = eventsOf(before, 'phase_branch').filter((e) => e.stage === 'worktree').map((e) => e.worktree).sort();
    expect(trees).toHaveLength(2);

    // 2: Ctrl-C's resume goes on in the same worktrees, both phases at once again.
    const second = project.start(['run', project.planArg, '--parallel', '2']);
    await waitFor('both resumed agents to run their sleep', () => livePids(/^sleep 23\.1$/).length > 0 && livePids(/^sleep 23\.2$/).length > 0);
    const resumed = await project.journal();
    expect(eventsOf(resumed, 'phase_resumed').map((e) => e.phaseId).sort()).toEqual(['1', '2']);
    expect(eventsOf(resumed, 'phase_branch').filter((e) => e.stage === 'worktree').map((e) => e.worktree).sort()).toEqual(trees);
    second.child.kill('SIGKILL');
    await second.done;
    expect(livePids(/^sleep 23\.[12]$/).length).toBe(2); // the orphans are really there
    killed = true;

    // 3: no --parallel: the phases an earlier run left in worktrees go on there, one at a time.
    const last = await project.run(['run', project.planArg]);
    expect(last.code, last.stdout + last.stderr).toBe(0);
    expect(last.stdout).toMatch(/ended \d+ process\(es\) it left behind/);
    expect(livePids(/^sleep 23\.[12]$/)).toEqual([]);
    const events = await project.journal();
    expect(eventsOf(events, 'phase_resumed').map((e) => e.phaseId).sort()).toEqual(['1', '2']);
    const lastTrees = eventsOf(events, 'phase_branch').filter((e) => e.stage === 'worktree');
    expect(lastTrees.map((e) => e.phaseId).sort()).toEqual(['1', '2', '3']);
    expect(lastTrees.filter((e) => e.phaseId !== '3').map((e) => e.worktree).sort()).toEqual(trees);
    for (const tree of lastTrees) expect(tree.worktree).toContain(path.join('.git', 'debussy', 'worktrees'));
    // Each session worked in its worktree, and its `debussy done` reached the run.
    expect(eventsOf(events, 'signal').map((e) => e.phaseId).sort()).toEqual(['1', '2', '3']);
    // Nothing lost: the work of the sessions Ctrl-C and kill -9 ended is merged, and phase 3 saw both phases'.
    for (const file of ['left.txt', 'right.txt', 'more-1.txt', 'more-2.txt', 'both.txt']) expect(existsSync(path.join(project.dir, file)), file).toBe(true);
    expect((await project.git('log', '--merges', '--format=%s')).trim().split('\n')).toHaveLength(3);
    expect((await project.git('status', '--porcelain')).trim()).toBe('');
    expect((await project.git('worktree', 'list')).trim().split('\n')).toHaveLength(1);
    expect((await project.git('branch', '--list', 'debussy/*')).trim()).toBe('');
    const status = JSON.parse((await project.run(['status', '--json'])).stdout) as { run: { phases: Record<string, { status: string }> } };
    expect(Object.values(status.run.phases).map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);
  }, 150_000);

  it('one usage limit pauses both: the other phase starts no new session until the limit resets, and the user is told once; then the conflicting pair: the second merge is aborted and its phase resolves the conflict in a merge remediation', async () => {
    let resetSeconds = 0;
    let hit = false;
    /** The phase a request is for: "phase 2" appears in a fresh, a checkpoint and a remediation prompt alike. */
    const phaseNumber = (req: RecordedRequest): string => /phase (\d+)/.exec(firstUserText(req))?.[1] ?? '?';
    /** The merge remediation: its prompt names the conflict (it starts as a checkpoint prompt does). */
    const isMergeRemediation = (req: RecordedRequest): boolean => /conflicts in colour\.txt/.test(firstUserText(req));
    const script = (req: RecordedRequest): ScriptedTurn => {
      const turn = assistantTurns(req);
      const kind = sessionKind(req);
      const id = phaseNumber(req);
      if (isMergeRemediation(req)) return [bash('grep -q "<<<<<<<" colour.txt && printf "red\\nblue\\n" > colour.txt'), bash(`debussy done --phase ${id}`), done()][turn] ?? done();
      if (id === '1') {
        if (kind === 'checkpoint') return [bash('debussy done --phase 1'), done()][turn] ?? done();
        if (turn === 0) return write('colour.txt', 'red\n');
        if (!hit) {
          hit = true;
          resetSeconds = Math.ceil(Date.now() / 1000) + 10;
          return { kind: 'error', status: 429, type: 'rate_limit_error', message: `Claude AI usage limit reached|${resetSeconds}`, headers: { 'x-should-retry': 'false' } };
        }
        return done();
      }
      // Phase 2's first session signals done without its colour (its gate fails) while phase 1 waits:
      // its remediation is the new session the limit must hold back. Both phases write colour.txt,
      // so whichever merges second conflicts.
      if (kind === 'remediation') return [write('colour.txt', 'blue\n'), bash('debussy done --phase 2'), done()][turn] ?? done();
      return [write('draft.txt', 'draft\n', { latencyMs: 3500 }), bash('debussy done --phase 2'), done()][turn] ?? done();
    };
    project = await E2EProject.create({
      phases: [
        { id: '1', title: 'Limited', gates: [{ name: 'red', command: 'grep -q red colour.txt' }] },
        { id: '2', title: 'Meanwhile', gates: [{ name: 'blue', command: 'grep -q blue colour.txt' }] },
      ],
      script,
    });
    const result = await project.run(['run', project.planArg, '--parallel', '2']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const main = project.api.mainRequests();
    const remediation = main.find((r) => sessionKind(r) === 'remediation');
    expect(remediation).toBeDefined();
    // Phase 2's first session ended (and its gate failed) during the wait; its next session came after the reset.
    const firstOfPhase2 = main.filter((r) => phaseNumber(r) === '2' && sessionKind(r) === 'fresh').map((r) => r.receivedAt);
    expect(Math.max(...firstOfPhase2)).toBeLessThan(resetSeconds * 1000);
    expect(remediation?.receivedAt ?? 0).toBeGreaterThanOrEqual(resetSeconds * 1000);
    const events = await project.journal();
    expect(eventsOf(events, 'usage_limit').map((e) => [e.phaseId, e.stage])).toEqual([['1', 'started'], ['1', 'ended']]);
    expect(result.stdout.split('debussy is waiting for a usage limit').length - 1).toBe(1);

    // The conflict: the second merge was aborted, its phase resolved the conflict, then merged.
    const stages = eventsOf(events, 'phase_branch').filter((e) => e.stage !== 'worktree');
    expect(stages.map((e) => e.stage)).toEqual(['merged', 'conflict', 'merged']);
    const conflict = stages.find((e) => e.stage === 'conflict');
    // Each phase completed; the one whose merge conflicted ended again after its merge remediation.
    expect(eventsOf(events, 'phase_ended').map((e) => [e.phaseId, e.status]).sort()).toEqual([['1', 'completed'], ['2', 'completed'], [conflict?.phaseId, 'completed']].sort());
    expect(conflict?.files).toEqual(['colour.txt']);
    expect(stages[2]?.phaseId).toBe(conflict?.phaseId);
    const mergeRemediation = main.find(isMergeRemediation);
    expect(mergeRemediation && sessionKind(mergeRemediation)).toBe('checkpoint');
    expect(mergeRemediation && phaseNumber(mergeRemediation)).toBe(conflict?.phaseId);
    expect(project.read('colour.txt')).toBe('red\nblue\n');
    expect(await project.git('log', '-p', '--first-parent', '--format=')).not.toContain('<<<<<<<');
  }, 120_000);
});

