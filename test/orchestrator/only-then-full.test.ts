/**
 * A run that selects some phases (`--only ID`, `--phase ID`) is the latest run of the plan, and the
 * next run resumes from the latest run's journal: completions of earlier runs must come through it,
 * or the next full run starts completed phases again. Through the whole orchestrator (runPlan,
 * several runs of one project) with the in-process agent, the master plan's Status column left
 * alone (update_plan_status off, the default), so the journals are all that knows.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeDryRun } from '../../src/cli/dry-run.js';
import { defaultConfig, type DebussyConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { parsePlan } from '../../src/plan/index.js';
import { done, FAST, LoopProject, type LoopOutcome, ofType, type SessionScript, success, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

const config: Partial<DebussyConfig> = { max_retries: 0, regression_gates: 'off' };
const FILES: Record<string, string> = { '1': 'one.txt', '2': 'two.txt', '3': 'three.txt' };
/** Each session writes its phase's file (which its gate checks) and signals its own phase done. */
const writesItsFile: SessionScript = (launch) => {
  const file = FILES[launch.env.DEBUSSY_PHASE_ID ?? ''] ?? 'unknown.txt';
  return [{ call: 20_000 }, { tool: 'Bash', input: { command: `touch ${file}` }, run: (cwd) => writeFileSync(path.join(cwd, file), '') }, done, success];
};

/** Phases 1 -> 2 -> 3, each gate checking the file its phase writes. */
function chainProject(): LoopProject {
  return LoopProject.create([
    { id: '1', title: 'One', gates: [{ name: 'one', command: 'test -f one.txt' }] },
    { id: '2', title: 'Two', dependsOn: ['1'], gates: [{ name: 'two', command: 'test -f two.txt' }] },
    { id: '3', title: 'Three', dependsOn: ['2'], gates: [{ name: 'three', command: 'test -f three.txt' }] },
  ], { git: true });
}

/** One run of the chain: the phases its sessions worked on, how each of its phases ended (and why). */
async function run(project: LoopProject, options: { only?: string; startAt?: string } = {}): Promise<LoopOutcome & { sessions: string[]; ended: string[] }> {
  const out = await project.run([writesItsFile], { config, ...options });
  expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
  return {
    ...out,
    sessions: ofType(out.events, 'session_started').map((event) => event.phaseId),
    ended: ofType(out.events, 'phase_ended').map((event) => `${event.phaseId}:${event.status}`),
  };
}

const reasonOf = (out: LoopOutcome, phaseId: string): string | undefined => ofType(out.events, 'phase_ended').find((event) => event.phaseId === phaseId)?.reason;

describe.concurrent('completions survive a run that selects some phases', () => {
  it('--only 1, then --only 2, then a full run: only phase 3 starts a session; 1 and 2 are known complete', async () => {
    const project = chainProject();
    try {
      await run(project, { only: '1' });
      const two = await run(project, { only: '2' });
      expect(two.sessions).toEqual(['2']);
      // Run --only 2 records what it knew of phase 1, saying it did not run it.
      expect(two.ended).toEqual(['1:completed', '2:completed']);
      expect(reasonOf(two, '1')).toMatch(/^not selected by this run; completed in run \S+$/);

      // What `debussy run --dry-run` would show.
      const plan = (await parsePlan(path.join(project.dir, project.planPath))).plan;
      if (plan === undefined) throw new Error('the plan did not parse');
      const dry = await describeDryRun(project.dir, plan, { ...defaultConfig(), ...FAST, ...config });
      expect(dry.phases.map((phase) => `${phase.id}:${phase.action}`)).toEqual(['1:skip', '2:skip', '3:run']);

      const full = await run(project);
      // What the run's start prints as "phase 1 already complete (completed in run …): skipped".
      expect(reasonOf(full, '1')).toMatch(/^completed in run \S+$/);
      expect(reasonOf(full, '2')).toMatch(/^completed in run \S+$/);
      expect(full.sessions).toEqual(['3']);
      expect(full.ended).toEqual(['1:completed', '2:completed', '3:completed']);
    } finally {
      project.cleanup();
    }
  });

  it('--only 1, then --phase 2 (which runs 2 and 3), then a full run: nothing runs again', async () => {
    const project = chainProject();
    try {
      await run(project, { only: '1' });
      expect((await run(project, { startAt: '2' })).sessions).toEqual(['2', '3']);
      expect((await run(project)).sessions).toEqual([]);
    } finally {
      project.cleanup();
    }
  });
});
