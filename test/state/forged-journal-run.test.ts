/**
 * A journal anyone can write, through the whole orchestrator in process
 * (test/support/in-process-run.ts): a completion appended to a run's journal once the run has
 * ended (as a process the agent left behind would), a genuine line copied from another run or
 * replayed for another phase, and a baseline the agent appends during the run are not taken for
 * debussy's verdicts; `debussy status` and the dry run say what they cannot believe, and the next
 * run verifies the phase by its gates.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDryRun, renderDryRunJson } from '../../src/cli/dry-run.js';
import { defaultConfig, type DebussyConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { parsePlan } from '../../src/plan/index.js';
import { done, FAST, LoopProject, ofType, script, type ScriptStep, type SessionScript, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { printedRun, statusOutput } from '../support/loop-output.js';

useLoopStateDir();

const CONFIG: Partial<DebussyConfig> = { max_retries: 0, regression_gates: 'off' };

const journalOf = (dir: string, runId: string): string => path.join(dir, '.debussy/runs', runId, 'journal.ndjson');
const linesOf = (file: string): string[] => readFileSync(file, 'utf8').trimEnd().split('\n');

/** Each session plays its phase's steps (by default it signals done without doing the work). */
const byPhase = (steps: Record<string, ScriptStep[]>): SessionScript => (launch) => [{ call: 20_000 }, ...(steps[launch.env.DEBUSSY_PHASE_ID ?? ''] ?? [done]), success];

/** What `debussy run --dry-run --json` says of each phase now. */
async function dryRun(project: LoopProject): Promise<{ phases: { id: string; action: string; note: string }[] }> {
  const { plan } = await parsePlan(path.join(project.dir, project.planPath));
  if (plan === undefined) throw new Error('the plan did not parse');
  return JSON.parse(renderDryRunJson(await describeDryRun(project.dir, plan, { ...defaultConfig(), ...FAST, ...CONFIG }))) as { phases: { id: string; action: string; note: string }[] };
}

describe.concurrent('a completion appended to the journal after the run ended', () => {
  it('does not make the next run skip the phase: its gates run again, and the user is told why', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Forged', gates: [{ name: 'check', command: 'test -f done.txt' }] }], { git: true });
    try {
      // The agent does not do the work and signals done; once the run has ended, a completion is appended to its journal.
      const first = await project.run([byPhase({})], { config: CONFIG });
      expect(first.exitCode).toBe(EXIT_CODES.failed.code);
      const forged = JSON.stringify({ type: 'phase_ended', phaseId: '1', status: 'completed', v: 1, ts: new Date().toISOString(), pid: 4242 });
      appendFileSync(journalOf(project.dir, first.runId), `${forged}\n`);
      expect(linesOf(journalOf(project.dir, first.runId)).at(-1)).toBe(forged);

      // status says what it cannot believe, and --json carries it.
      expect(await statusOutput(project.dir)).toMatch(/Note: debussy cannot prove it recorded the completion of phase 1 in this journal \(it carries no seal of debussy/);
      const statusJson = JSON.parse(await statusOutput(project.dir, { json: true })) as { run: { unproven?: unknown[] } };
      expect(statusJson.run.unproven).toMatchObject([{ type: 'phase_ended', phaseId: '1', status: 'completed', why: 'unsealed' }]);
      expect((await dryRun(project)).phases).toMatchObject([{ id: '1', action: 'verify', note: expect.stringContaining(`its completion recorded in run ${first.runId} cannot be proven`) as string }]);

      const second = await project.run([byPhase({ '1': [touch('done.txt', 'done\n'), done] })], { config: CONFIG });
      expect(second.exitCode, second.notices.join('\n')).toBe(EXIT_CODES.success.code);
      const told = `phase 1: its completion recorded in run ${first.runId} cannot be proven: it carries no seal of debussy (another process wrote it, or a debussy from before sealed journals); its gates run again before it counts as done (--trust-completed skips this)`;
      const printed = printedRun(second);
      expect(printed).toContain(told);
      expect(printed).not.toMatch(/phase 1 already complete/);
      expect(ofType(second.events, 'notice').map((n) => n.message)).toContain(told);
      // Its gates ran first and failed, so the agent worked on it (a paid session), and then they passed.
      const baselines = ofType(second.events, 'baseline_result');
      expect(baselines[0]).toMatchObject({ phaseId: '1', name: 'check', passed: false, reverify: true });
      // The failed first run's baseline is carried too (the phase resumes where that run left it).
      expect(baselines.length).toBeGreaterThan(1);
      expect(baselines.slice(1)).toMatchObject(baselines.slice(1).map(() => ({ phaseId: '1', passed: false, fromRunId: first.runId })));
      expect(second.agent.launches).toHaveLength(1);
      expect(ofType(second.events, 'gate_result').at(-1)).toMatchObject({ phaseId: '1', passed: true });
      expect(ofType(second.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    } finally {
      project.cleanup();
    }
  });

  it('nor does a genuine line copied from another run, or one of the same run replayed for another phase; a passing verification needs no session', async () => {
    const project = LoopProject.create([
      { id: '1', title: 'One', gates: [{ name: 'one', command: 'test -f one.txt' }] },
      { id: '2', title: 'Two', gates: [{ name: 'two', command: 'test -f two.txt' }] },
      { id: '3', title: 'Three', gates: [{ name: 'three', command: 'test -f three.txt' }] },
    ], { git: true });
    try {
      // Run A completes phase 2 for real; then its file goes.
      const a = await project.run([byPhase({ '2': [touch('two.txt', '2\n'), done] })], { config: CONFIG, only: '2' });
      expect(a.exitCode, a.notices.join('\n')).toBe(EXIT_CODES.success.code);
      project.git('rm', '-q', 'two.txt');
      project.git('commit', '-q', '-m', 'two.txt goes');

      // Run B (from scratch): phase 1 completes, 2 and 3 fail. Once B has ended, A's completion of
      // phase 2 is copied into B's journal, and B's own completion of phase 1 replayed as phase 3's.
      const b = await project.run([byPhase({ '1': [touch('one.txt', '1\n'), done] })], { config: CONFIG, fresh: true });
      expect(b.exitCode).toBe(EXIT_CODES.failed.code);
      const completionOf = (file: string, phase: string) => linesOf(file).find((line) => line.includes('"phase_ended"') && line.includes(`"phaseId":"${phase}"`) && line.includes('"status":"completed"'));
      const copied = completionOf(journalOf(project.dir, a.runId), '2');
      const replayed = completionOf(journalOf(project.dir, b.runId), '1')?.replace('"phaseId":"1"', '"phaseId":"3"');
      // What is appended is genuine text: a seal of run A, and one of run B for phase 1.
      expect(copied).toMatch(/"mac":"/);
      expect(replayed).toMatch(/"phaseId":"3","status":"completed".*"mac":"/);
      appendFileSync(journalOf(project.dir, b.runId), `${copied ?? ''}\n${replayed ?? ''}\n`);

      const dry = await dryRun(project);
      expect(dry.phases.map((p) => [p.id, p.action])).toEqual([['1', 'skip'], ['2', 'verify'], ['3', 'verify']]);
      expect(dry.phases[1]?.note).toContain('its seal does not match (the line was edited, or copied from another run');

      // The user makes phase 3's file by hand: its verification passes without a session; phase 2's fails and its agent works.
      project.write('three.txt', '3\n');
      project.git('add', 'three.txt');
      project.git('commit', '-q', '-m', 'three.txt by hand');
      const c = await project.run([byPhase({ '2': [touch('two.txt', '2\n'), done] })], { config: CONFIG });
      expect(c.exitCode, c.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(c.agent.launches.map((launch) => launch.env.DEBUSSY_PHASE_ID)).toEqual(['2']);
      expect(ofType(c.events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed'], ['3', 'completed']]);
      expect(ofType(c.events, 'phase_ended').find((e) => e.phaseId === '3')?.reason).toMatch(/^verified again \(its completion recorded in run .* cannot be proven/);
      const notices = ofType(c.events, 'notice');
      expect(notices.filter((n) => /cannot be proven: .*; its gates run again before it counts as done/.test(n.message)).map((n) => n.phaseId)).toEqual(['2', '3']);
      expect(notices.map((n) => n.message)).toContainEqual(expect.stringMatching(/cannot be proven: .*: gate\(s\) two fail now, so the phase runs again$/));
    } finally {
      project.cleanup();
    }
  });

  it('during the run too: a baseline the agent appends cannot pass its own failure off as inherited', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Excused', gates: [{ name: 'check', command: 'test ! -f broken.txt' }] }]);
    try {
      const forged = JSON.stringify({ type: 'baseline_result', phaseId: '1', name: 'check', command: 'test ! -f broken.txt', passed: false, exitCode: 1, durationMs: 1, outputTail: '', v: 1, ts: new Date().toISOString(), pid: 4343 });
      // The agent's shell appends to its run's journal (the only run in the project).
      const append: ScriptStep = { tool: 'Bash', run: (cwd) => {
        const [runId = ''] = readdirSync(path.join(cwd, '.debussy/runs')).filter((name) => !name.startsWith('.'));
        appendFileSync(journalOf(cwd, runId), `${forged}\n`);
      } };
      const out = await project.run([script({ call: 20_000 }, touch('broken.txt', 'the agent broke the gate\n'), append, done, success)], { config: { ...CONFIG, inherited_failures: 'warn' } });
      expect(ofType(out.events, 'baseline_result').map((b) => [b.pid, b.passed])).toEqual([[process.pid, true], [4343, false]]);
      // The gate passed before the phase (the sealed baseline): its failure now is the phase's.
      expect(out.exitCode).toBe(EXIT_CODES.failed.code);
      expect(ofType(out.events, 'gate_result')).toMatchObject([{ name: 'check', passed: false }]);
      expect(ofType(out.events, 'gate_result')[0]?.inherited).toBeUndefined();
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'failed' }]);
    } finally {
      project.cleanup();
    }
  });
});
