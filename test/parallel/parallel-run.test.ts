/**
 * --parallel through the whole orchestrator (runPlan: the lock, the journal, runPhase in worktrees,
 * gates, commits and merges in a temp git repository) with the in-process agent, each session
 * playing its phase's script. What only the real claude can show stays in
 * test/e2e/parallel-phases.test.ts.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DebussyConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { liveStateDir, type JournalEvent } from '../../src/state/index.js';
import { inProcessAgent, type ScriptStep } from '../support/in-process-agent.js';
import { LoopProject, type LoopOutcome, useLoopStateDir } from '../support/in-process-run.js';
import type { PhaseSpec } from '../support/plan-files.js';
import { git } from '../support/temp-git-repo.js';

useLoopStateDir();

/** Phase id -> the steps its sessions play (a list: session 1, 2, ... of that phase; the last repeats). */
type PhaseScripts = Record<string, ((cwd: string) => ScriptStep[])[]>;

async function run(project: LoopProject, scripts: PhaseScripts, options: { config?: Partial<DebussyConfig>; interrupt?: AbortController; fresh?: boolean } = {}): Promise<LoopOutcome> {
  const played = new Map<string, number>();
  const agent = inProcessAgent([(launch) => {
    const phase = launch.env.DEBUSSY_PHASE_ID ?? '';
    const n = played.get(phase) ?? 0;
    played.set(phase, n + 1);
    const list = scripts[phase] ?? [];
    const script = list[Math.min(n, list.length - 1)];
    if (script === undefined) throw new Error(`no script for phase ${phase}`);
    return script(launch.cwd);
  }]);
  return project.run(agent, {
    config: { max_parallel: 2, ...options.config },
    ...(options.interrupt === undefined ? {} : { interrupt: options.interrupt }),
    ...(options.fresh === true ? { fresh: true } : {}),
  });
}

const done: ScriptStep = { done: 'completed' };
const success: ScriptStep = { end: 'success' };
const write = (file: string, text = 'work\n'): ScriptStep => ({ tool: 'Write', input: { file_path: file }, run: (cwd) => writeFileSync(path.join(cwd, file), text) });
const ofType = <T extends JournalEvent['type']>(events: readonly JournalEvent[], type: T) => events.filter((e): e is Extract<JournalEvent, { type: T }> => e.type === type);

/** Both parties wait here for each other: a run that starts them one after the other never gets past it (a timeout says so). */
function barrier(parties: number): { arrive: () => Promise<void>; met: () => boolean } {
  let arrived = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      arrived += 1;
      if (arrived >= parties) open();
      return Promise.race([opened, new Promise<void>((resolve) => setTimeout(resolve, 4000))]);
    },
    met: () => arrived >= parties,
  };
}

const DIAMOND: PhaseSpec[] = [
  { id: '1', title: 'Left', gates: [{ name: 'left', command: 'test -f left.txt' }] },
  { id: '2', title: 'Right', gates: [{ name: 'right', command: 'test -f right.txt' }] },
  { id: '3', title: 'Both', dependsOn: ['1', '2'], gates: [{ name: 'both', command: 'test -f left.txt && test -f right.txt && test -f both.txt' }] },
];

describe.concurrent('--parallel, with an in-process agent', () => {
  it('runs two independent phases at once in worktrees, merges both, and the dependent phase starts from both', async () => {
    const project = LoopProject.create(DIAMOND, { git: true });
    const dir = project.dir;
    try {
      const meet = barrier(2);
      let sawBoth = false;
      const out = await run(project, {
        '1': [() => [{ call: 20_000 }, write('left.txt'), { until: meet.arrive }, done, success]],
        '2': [() => [{ call: 20_000 }, write('right.txt'), { until: meet.arrive }, done, success]],
        '3': [(cwd) => [{ call: 20_000 }, { tool: 'Bash', run: () => (sawBoth = existsSync(path.join(cwd, 'left.txt')) && existsSync(path.join(cwd, 'right.txt'))) }, write('both.txt'), done, success]],
      }, { config: { update_plan_status: true } });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(meet.met()).toBe(true);
      expect(sawBoth).toBe(true);
      const worktrees = ofType(out.events, 'phase_branch').filter((e) => e.stage === 'worktree');
      expect(worktrees.map((e) => e.phaseId).sort()).toEqual(['1', '2', '3']);
      expect(new Set(worktrees.map((e) => e.worktree)).size).toBe(3);
      expect(ofType(out.events, 'phase_branch').filter((e) => e.stage === 'merged').map((e) => e.phaseId).slice(-1)).toEqual(['3']);
      // Phase 3 started only after both merges.
      const at = (pred: (e: JournalEvent) => boolean) => out.events.findIndex(pred);
      const started3 = at((e) => e.type === 'phase_started' && e.phaseId === '3');
      for (const id of ['1', '2']) expect(at((e) => e.type === 'phase_branch' && e.stage === 'merged' && e.phaseId === id)).toBeLessThan(started3);
      for (const file of ['left.txt', 'right.txt', 'both.txt']) expect(existsSync(path.join(dir, file))).toBe(true);
      expect((await git(dir, 'status', '--porcelain')).trim()).toBe('');
      expect((await git(dir, 'log', '--merges', '--format=%s')).trim().split('\n')).toHaveLength(3);
      // Nothing left: no worktree, no phase branch.
      expect((await git(dir, 'worktree', 'list')).trim().split('\n')).toHaveLength(1);
      expect((await git(dir, 'branch', '--list', 'debussy/*')).trim()).toBe('');
      expect(readFileSync(path.join(dir, 'plans/e2e/MASTER_PLAN.md'), 'utf8').match(/Complete/g)).toHaveLength(3);
      // Each phase's Status cell went into its merge commit: no commit of its own after it; the two
      // phases that started together have one "in progress" commit.
      const subjects = await git(dir, 'log', '--first-parent', '--format=%s');
      expect(subjects).not.toMatch(/phase \d completed/);
      expect(subjects).toContain('phases 1, 2 in progress');
      expect(subjects).not.toMatch(/phase [12] in progress/);
      for (const id of ['1', '2', '3']) {
        const merge = (await git(dir, 'log', '--merges', '--format=%H', '--grep', `merge phase ${id} `)).trim();
        expect(await git(dir, 'show', '--format=', '--first-parent', '--name-only', merge)).toContain('plans/e2e/MASTER_PLAN.md');
      }
      expect(out.state.phases['1']?.status).toBe('completed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a conflicting pair: the second merge is aborted, the phase resolves the conflict in its worktree on top of the merged work, then merges', async () => {
    const phases: PhaseSpec[] = [
      { id: '1', title: 'Red', gates: [{ name: 'red', command: 'grep -q red colour.txt' }] },
      { id: '2', title: 'Blue', gates: [{ name: 'blue', command: 'grep -q blue colour.txt' }] },
    ];
    const project = LoopProject.create(phases, { git: true });
    const dir = project.dir;
    try {
      const meet = barrier(2);
      let sawConflict = false;
      // Whichever phase merges second meets the conflict: its second session resolves it.
      const resolve = (cwd: string): ScriptStep[] => [{ call: 20_000 }, { tool: 'Bash', run: () => (sawConflict = readFileSync(path.join(cwd, 'colour.txt'), 'utf8').includes('<<<<<<<')) }, write('colour.txt', 'red\nblue\n'), done, success];
      const out = await run(project, {
        '1': [() => [{ call: 20_000 }, write('colour.txt', 'red\n'), { until: meet.arrive }, done, success], resolve],
        '2': [() => [{ call: 20_000 }, write('colour.txt', 'blue\n'), { until: meet.arrive }, done, success], resolve],
      });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(sawConflict).toBe(true);
      const stages = ofType(out.events, 'phase_branch').filter((e) => e.stage !== 'worktree').map((e) => `${e.phaseId}:${e.stage}`);
      const [first, second] = stages[0]?.startsWith('1:') === true ? ['1', '2'] : ['2', '1'];
      expect(stages).toEqual([`${first}:merged`, `${second}:conflict`, `${second}:merged`]);
      // The merge was aborted: the run's branch never held a conflict marker.
      expect(await git(dir, 'log', '-p', '--first-parent', '--format=')).not.toContain('<<<<<<<');
      expect(readFileSync(path.join(dir, 'colour.txt'), 'utf8')).toBe('red\nblue\n');
      expect((await git(dir, 'status', '--porcelain')).trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a conflict the remediation leaves unresolved stops the run (exit failed), both branches kept, the way on printed', async () => {
    const phases: PhaseSpec[] = [{ id: '1', title: 'Red' }, { id: '2', title: 'Blue' }];
    const project = LoopProject.create(phases, { git: true });
    const dir = project.dir;
    try {
      const meet = barrier(2);
      const out = await run(project, {
        '1': [() => [{ call: 20_000 }, write('colour.txt', 'red\n'), { until: meet.arrive }, done, success], () => [{ call: 20_000 }, done, success]],
        '2': [() => [{ call: 20_000 }, write('colour.txt', 'blue\n'), { until: meet.arrive }, done, success], () => [{ call: 20_000 }, done, success]],
      });
      expect(out.exitCode).toBe(EXIT_CODES.failed.code);
      const failed = ofType(out.events, 'phase_branch').find((e) => e.stage === 'merge_failed');
      const second = failed?.phaseId ?? '-';
      expect(out.state.reason ?? '').toMatch(/conflict markers left in colour\.txt/);
      expect(out.state.reason ?? '').toContain(`git merge debussy/${out.state.runId}/${second}`);
      expect((await git(dir, 'branch', '--list', failed?.branch ?? '-')).trim()).not.toBe('');
      expect(existsSync(failed?.worktree ?? '-')).toBe(true);
      expect((await git(dir, 'status', '--porcelain')).trim()).toBe('');
      expect(readFileSync(path.join(dir, 'colour.txt'), 'utf8')).toBe(second === '2' ? 'red\n' : 'blue\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('one budget: the spend of the phases running together counts, and no phase starts a session once it is reached', async () => {
    const phases: PhaseSpec[] = [{ id: '1', title: 'One' }, { id: '2', title: 'Two' }, { id: '3', title: 'Three' }];
    const project = LoopProject.create(phases, { git: true });
    const dir = project.dir;
    try {
      const meet = barrier(2);
      const costly = (file: string) => () => [{ call: 20_000 }, write(file), { until: meet.arrive }, done, { end: 'success', costUsd: 0.03 } as ScriptStep];
      const out = await run(project, { '1': [costly('one.txt')], '2': [costly('two.txt')], '3': [costly('three.txt')] }, { config: { max_cost: 0.05 } });
      expect(out.exitCode).toBe(EXIT_CODES.budget.code);
      expect(meet.met()).toBe(true);
      expect(ofType(out.events, 'session_started').filter((e) => e.phaseId === '3')).toHaveLength(0);
      expect(ofType(out.events, 'budget_reached').map((e) => e.phaseId)).toEqual(['3']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C during two phases commits each worktree\'s work; the next run resumes both in their worktrees and completes', async () => {
    const project = LoopProject.create(DIAMOND, { git: true });
    const dir = project.dir;
    try {
      const interrupt = new AbortController();
      const meet = barrier(2);
      const first = await run(project, {
        '1': [() => [{ call: 20_000 }, write('left.txt'), { until: meet.arrive }, { hang: true }]],
        '2': [() => [{ call: 20_000 }, write('right.txt'), { until: meet.arrive }, { tool: 'Bash', run: () => interrupt.abort() }, { hang: true }]],
      }, { interrupt });
      expect(first.exitCode).toBe(EXIT_CODES.interrupted.code);
      const trees = ofType(first.events, 'phase_branch').filter((e) => e.stage === 'worktree');
      expect(trees).toHaveLength(2);
      for (const tree of trees) {
        expect((await git(tree.worktree, 'status', '--porcelain')).trim()).toBe('');
        expect(await git(tree.worktree, 'log', '-1', '--format=%s')).toMatch(/interrupted/i);
      }
      const second = await run(project, {
        '1': [(cwd) => [{ call: 20_000 }, { tool: 'Bash', run: () => { if (!existsSync(path.join(cwd, 'left.txt'))) throw new Error('left.txt lost'); } }, done, success]],
        '2': [() => [{ call: 20_000 }, done, success]],
        '3': [() => [{ call: 20_000 }, write('both.txt'), done, success]],
      });
      expect(second.exitCode).toBe(EXIT_CODES.success.code);
      const resumedIn = ofType(second.events, 'phase_branch').filter((e) => e.stage === 'worktree' && e.phaseId !== '3').map((e) => e.worktree).sort();
      expect(resumedIn).toEqual(trees.map((e) => e.worktree).sort());
      expect(ofType(second.events, 'phase_resumed').map((e) => e.phaseId).sort()).toEqual(['1', '2']);
      for (const file of ['left.txt', 'right.txt', 'both.txt']) expect(existsSync(path.join(dir, file))).toBe(true);
      expect((await git(dir, 'worktree', 'list')).trim().split('\n')).toHaveLength(1);
      for (const tree of trees) expect(existsSync(tree.worktree)).toBe(false);
      expect(trees[0]?.worktree.startsWith(path.join(liveStateDir(dir), 'worktrees'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('one usage limit pauses every phase: one wait (one notification), and no new session of another phase starts before it ends', async () => {
    const phases: PhaseSpec[] = [{ id: '1', title: 'Limited' }, { id: '2', title: 'Other' }];
    const project = LoopProject.create(phases, { git: true });
    const dir = project.dir;
    try {
      const meet = barrier(2);
      const later = (ms: number): ScriptStep => ({ until: () => new Promise((resolve) => setTimeout(resolve, ms)) });
      const out = await run(project, {
        '1': [() => [{ call: 20_000 }, { until: meet.arrive }, { usageLimit: Math.floor(Date.now() / 1000) + 2 }], () => [{ call: 20_000 }, done, success]],
        // Phase 2's session crashes while phase 1 waits: its retry must wait too.
        '2': [() => [{ call: 20_000 }, { until: meet.arrive }, later(300), { crash: 1 }], () => [{ call: 20_000 }, done, success]],
      }, { config: { max_wait: 60_000 } });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      const ended = ofType(out.events, 'usage_limit').find((e) => e.stage === 'ended' && e.phaseId === '1');
      expect(ended).toBeDefined();
      const retry = ofType(out.events, 'session_started').filter((e) => e.phaseId === '2')[1];
      expect(Date.parse(retry?.ts ?? '')).toBeGreaterThanOrEqual(Date.parse(ended?.ts ?? ''));
      expect(out.notices.filter((n) => n.includes('is waiting for a usage limit'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a merge that breaks a merged phase's gate is aborted, and a remediation on top of the merged work makes it pass", async () => {
    const phases: PhaseSpec[] = [
      { id: '1', title: 'Guard', gates: [{ name: 'no-bad', command: '! grep -qs bad b.txt' }] },
      { id: '2', title: 'Bad', gates: [{ name: 'b', command: 'test -f b.txt' }] },
    ];
    const project = LoopProject.create(phases, { git: true });
    const dir = project.dir;
    try {
      const meet = barrier(2);
      const fix = (): ScriptStep[] => [{ call: 20_000 }, write('b.txt', 'good\n'), done, success];
      const out = await run(project, {
        '1': [() => [{ call: 20_000 }, write('a.txt'), { until: meet.arrive }, done, success], fix],
        '2': [() => [{ call: 20_000 }, write('b.txt', 'bad\n'), { until: meet.arrive }, done, success], fix],
      });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      const conflict = ofType(out.events, 'phase_branch').find((e) => e.stage === 'conflict');
      expect(conflict?.files).toEqual(['no-bad (phase 1)']);
      expect(ofType(out.events, 'regression_result').some((e) => !e.passed && e.name === 'no-bad')).toBe(true);
      expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('good\n');
      expect((await git(dir, 'status', '--porcelain')).trim()).toBe('');
      // One merge commit per phase: the aborted merge left none.
      expect((await git(dir, 'log', '--merges', '--first-parent', '--format=%s')).trim().split('\n')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start without commits to merge or a branch to merge into: one line, exit 2, nothing run', async () => {
    const project = LoopProject.create([{ id: '1', title: 'One' }], { git: true });
    const dir = project.dir;
    try {
      const refusal = async (config: Partial<DebussyConfig>) => run(project, { '1': [() => [done, success]] }, { config }).then(() => undefined, (error: unknown) => error as { message: string; exitKind: string });
      expect(await refusal({ auto_commit: false })).toMatchObject({ exitKind: 'usage' });
      expect((await refusal({ auto_commit: false }))?.message).toMatch(/needs a git repository and auto_commit on/);
      await git(dir, 'checkout', '--quiet', '--detach');
      expect(await refusal({})).toMatchObject({ exitKind: 'usage' });
      expect((await refusal({}))?.message).toMatch(/HEAD is detached/);
      expect(existsSync(path.join(dir, '.debussy', 'runs'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('worktree_setup runs in each new worktree before its phase (here: copies an untracked file the gate needs); a failing setup fails its phase, naming the command, and leaves no worktree', async () => {
    const phases: PhaseSpec[] = [
      { id: '1', title: 'Needs local', gates: [{ name: 'local', command: 'test -f local.env && test -f one.txt' }] },
      { id: '2', title: 'Also needs it', gates: [{ name: 'local', command: 'test -f local.env && test -f two.txt' }] },
    ];
    const project = LoopProject.create(phases, { git: true });
    const dir = project.dir;
    try {
      // Untracked and ignored in the user's tree: git does not carry it into a worktree.
      writeFileSync(path.join(dir, '.git', 'info', 'exclude'), 'local.env\n');
      writeFileSync(path.join(dir, 'local.env'), 'LOCAL=1\n');
      const scripts: PhaseScripts = { '1': [() => [write('one.txt'), done, success]], '2': [() => [write('two.txt'), done, success]] };
      const without = await run(project, scripts, { config: { max_retries: 0 } });
      expect(without.exitCode).toBe(EXIT_CODES.failed.code); // the gates cannot see local.env

      const freshProject = LoopProject.create(phases, { git: true });
      const fresh = freshProject.dir;
      try {
        writeFileSync(path.join(fresh, '.git', 'info', 'exclude'), 'local.env\n');
        writeFileSync(path.join(fresh, 'local.env'), 'LOCAL=1\n');
        const out = await run(freshProject, scripts, { config: { worktree_setup: 'cp "$DEBUSSY_PROJECT_ROOT/local.env" .' } });
        expect(out.exitCode, out.state.reason).toBe(EXIT_CODES.success.code);
        expect(ofType(out.events, 'notice').filter((e) => /worktree set up \(worktree_setup/.test(e.message)).map((e) => e.phaseId).sort()).toEqual(['1', '2']);
        // The copied file stays out of the phases' commits (the user's exclude applies in the worktree too).
        expect((await git(fresh, 'log', '--name-only', '--format=')).split('\n')).not.toContain('local.env');

        const failing = await run(freshProject, scripts, { config: { worktree_setup: 'echo "npm ERR! missing lockfile" >&2; exit 3' }, fresh: true });
        expect(failing.exitCode).toBe(EXIT_CODES.failed.code);
        const ended = ofType(failing.events, 'phase_ended').filter((e) => e.status === 'failed');
        expect(ended.map((e) => e.phaseId).sort()).toEqual(['1', '2']);
        expect(ended[0]?.reason).toMatch(/^worktree_setup `echo "npm ERR! missing lockfile" >&2; exit 3` failed in its worktree \(exit 3\): npm ERR! missing lockfile$/);
        expect(ofType(failing.events, 'session_started')).toHaveLength(0);
        expect((await git(fresh, 'worktree', 'list')).trim().split('\n')).toHaveLength(1);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
